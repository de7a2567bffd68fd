-- A service's own first migration, as every service numbers them: V2 onwards, above the framework's 1.0.x.
create table test_service_widget (id int primary key);
