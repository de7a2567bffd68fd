package io.sagaflow.framework.test.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import io.sagaflow.framework.domain.Command;
import io.sagaflow.framework.domain.DomainEvent;
import java.util.List;

/**
 * Sagaflow's shared architecture rules. A service runs them all with one line in a test:
 * {@code SagaflowArchitecture.verify("io.sagaflow.order");}
 *
 * <ul>
 *   <li>{@link #DOMAIN_IS_PURE}: {@code ..domain..} packages use no Spring, Hazelcast, JDBC or Jakarta types;
 *   <li>{@link #noPackageCycles}: the service's packages form no cycle;
 *   <li>{@link #EVENTS_AND_COMMANDS_ARE_RECORDS}: every {@link DomainEvent} and {@link Command} is a record;
 *   <li>{@link #noOtherServiceImplementation}: no use of another service's code, only of its contracts.
 * </ul>
 */
public final class SagaflowArchitecture {

    public static final ArchRule DOMAIN_IS_PURE = noClasses()
            .that()
            .resideInAPackage("..domain..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                    "org.springframework..",
                    "com.hazelcast..",
                    "java.sql..",
                    "javax.sql..",
                    "jakarta..",
                    "org.postgresql..")
            .as("domain packages are free of Spring, Hazelcast, JDBC and Jakarta")
            .allowEmptyShould(true);

    public static final ArchRule EVENTS_AND_COMMANDS_ARE_RECORDS = classes()
            .that()
            .implement(DomainEvent.class)
            .or()
            .implement(Command.class)
            .and()
            .areNotInterfaces()
            .should(beRecords())
            .as("domain events and commands are records")
            .allowEmptyShould(true);

    private SagaflowArchitecture() {}

    /** No cycles among the sub-packages of {@code rootPackage}. */
    public static ArchRule noPackageCycles(String rootPackage) {
        return slices().matching(rootPackage + ".(**)")
                .should()
                .beFreeOfCycles()
                .as("no package cycles in " + rootPackage)
                .allowEmptyShould(true);
    }

    /**
     * Code under {@code rootPackage} uses no other service's code, only the framework and other services' message
     * contracts ({@code ..contracts..}). The build's enforcer rule says the same of Maven dependencies.
     */
    public static ArchRule noOtherServiceImplementation(String rootPackage) {
        return noClasses()
                .that()
                .resideInAPackage(rootPackage + "..")
                .should()
                .dependOnClassesThat(new DescribedPredicate<JavaClass>("belong to another service's implementation") {
                    @Override
                    public boolean test(JavaClass target) {
                        String pkg = target.getPackageName() + ".";
                        return pkg.startsWith("io.sagaflow.")
                                && !pkg.startsWith("io.sagaflow.framework.")
                                && !pkg.startsWith(rootPackage + ".")
                                && !pkg.contains(".contracts.");
                    }
                })
                .as("no code of another service in " + rootPackage)
                .allowEmptyShould(true);
    }

    /** Checks every rule against the production classes under {@code rootPackage}; throws on a violation. */
    public static void verify(String rootPackage) {
        verify(
                rootPackage,
                new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
                        .importPackages(rootPackage));
    }

    /** Checks every rule against {@code classes}, whose packages lie under {@code rootPackage}. */
    public static void verify(String rootPackage, JavaClasses classes) {
        for (ArchRule rule : List.of(
                DOMAIN_IS_PURE,
                EVENTS_AND_COMMANDS_ARE_RECORDS,
                noPackageCycles(rootPackage),
                noOtherServiceImplementation(rootPackage))) {
            rule.check(classes);
        }
    }

    private static ArchCondition<JavaClass> beRecords() {
        return new ArchCondition<>("be records") {
            @Override
            public void check(JavaClass javaClass, ConditionEvents events) {
                boolean record = javaClass.isAssignableTo(Record.class);
                events.add(new SimpleConditionEvent(
                        javaClass, record, javaClass.getName() + (record ? " is" : " is not") + " a record"));
            }
        };
    }
}
