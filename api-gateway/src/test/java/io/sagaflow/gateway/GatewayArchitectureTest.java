package io.sagaflow.gateway;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;

@AnalyzeClasses(packages = "io.sagaflow.gateway", importOptions = ImportOption.DoNotIncludeTests.class)
class GatewayArchitectureTest {

    @ArchTest
    static final ArchRule featurePackagesHaveNoCycles =
            slices().matching("io.sagaflow.gateway.(*)..").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule theTokenBucketIsPure = ArchRuleDefinition.classes()
            .that()
            .haveNameMatching("io\\.sagaflow\\.gateway\\.ratelimit\\.TokenBucket(\\$.*)?")
            .should()
            .onlyDependOnClassesThat()
            .resideInAnyPackage("java.lang..", "io.sagaflow.gateway.ratelimit");
}
