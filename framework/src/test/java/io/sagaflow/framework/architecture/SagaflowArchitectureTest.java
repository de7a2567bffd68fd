package io.sagaflow.framework.architecture;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.sagaflow.framework.test.architecture.SagaflowArchitecture;
import org.junit.jupiter.api.Test;

/** The shared rules catch what they promise to catch, and pass clean code. */
class SagaflowArchitectureTest {

    private static final String VIOLATIONS = "io.sagaflow.framework.architecture.violations";

    @Test
    void passesACleanDomain() {
        String clean = "io.sagaflow.framework.architecture.clean";
        assertThatCode(() -> SagaflowArchitecture.verify(clean, new ClassFileImporter().importPackages(clean)))
                .doesNotThrowAnyException();
    }

    @Test
    void rejectsADomainThatUsesJdbc() {
        assertThatThrownBy(() -> SagaflowArchitecture.DOMAIN_IS_PURE.check(
                        new ClassFileImporter().importPackages(VIOLATIONS + ".impure")))
                .hasMessageContaining("ImpureDecider");
    }

    @Test
    void rejectsAnEventThatIsNotARecord() {
        assertThatThrownBy(() -> SagaflowArchitecture.EVENTS_AND_COMMANDS_ARE_RECORDS.check(
                        new ClassFileImporter().importPackages(VIOLATIONS + ".notrecord")))
                .hasMessageContaining("MutableEvent is not a record");
    }

    @Test
    void rejectsAPackageCycle() {
        String cycle = VIOLATIONS + ".cycle";
        assertThatThrownBy(() -> SagaflowArchitecture.noPackageCycles(cycle)
                        .check(new ClassFileImporter().importPackages(cycle)))
                .hasMessageContaining("Cycle");
    }

    @Test
    void rejectsCodeOfAnotherServiceButAllowsItsContracts() {
        String bad = "io.sagaflow.archfixture.shopbad";
        assertThatThrownBy(() -> SagaflowArchitecture.noOtherServiceImplementation(bad)
                        .check(new ClassFileImporter().importPackages(bad)))
                .hasMessageContaining("BillingService");
        String good = "io.sagaflow.archfixture.shop";
        assertThatCode(() -> SagaflowArchitecture.noOtherServiceImplementation(good)
                        .check(new ClassFileImporter().importPackages(good)))
                .doesNotThrowAnyException();
    }

    @Test
    void frameworkItselfKeepsItsDomainPureAndAcyclic() {
        SagaflowArchitecture.verify("io.sagaflow.framework.domain");
        SagaflowArchitecture.noPackageCycles("io.sagaflow.framework")
                .check(new ClassFileImporter()
                        .withImportOption(
                                com.tngtech.archunit.core.importer.ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("io.sagaflow.framework"));
    }
}
