package dev.nqueens;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * The rooms of docs/development.md's package map and the floors they stand on, read from the
 * compiled classes: each floor uses only the floors below it, no two packages use each other, the
 * algorithm core stays plain Java, and H2's own classes are used in the {@code h2} package alone.
 */
@Order(Integer.MAX_VALUE) // one of the longest unit test classes: last in the list, so started first (see the pom)
class ArchitectureTests {

    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.nqueens", "db.migration");
    }

    @Test
    void eachFloorUsesOnlyTheFloorsBelowIt() {
        layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .layer("commands")
                .definedBy("dev.nqueens", "dev.nqueens.cli..")
                .layer("services")
                .definedBy("dev.nqueens.cluster..", "dev.nqueens.web..", "dev.nqueens.verify..")
                .layer("job")
                .definedBy("dev.nqueens.job..")
                .layer("reports")
                .definedBy("dev.nqueens.export..", "dev.nqueens.query..")
                .layer("store")
                .definedBy("dev.nqueens.store..", "db.migration..")
                .layer("h2")
                .definedBy("dev.nqueens.h2..")
                .layer("settings")
                .definedBy("dev.nqueens.settings..")
                .layer("algorithms")
                .definedBy("dev.nqueens.solver..", "dev.nqueens.symmetry..", "dev.nqueens.count..")
                .layer("foundations")
                .definedBy("dev.nqueens.board..", "dev.nqueens.failure..")
                .whereLayer("commands")
                .mayNotBeAccessedByAnyLayer()
                .whereLayer("services")
                .mayOnlyBeAccessedByLayers("commands")
                .whereLayer("job")
                .mayOnlyBeAccessedByLayers("commands", "services")
                .whereLayer("reports")
                .mayOnlyBeAccessedByLayers("commands", "services", "job")
                .whereLayer("store")
                .mayOnlyBeAccessedByLayers("commands", "services", "job", "reports")
                .whereLayer("h2")
                .mayOnlyBeAccessedByLayers("commands", "services", "job", "reports", "store")
                .whereLayer("settings")
                .mayOnlyBeAccessedByLayers("commands", "services", "job", "reports", "store", "h2")
                .whereLayer("algorithms")
                .mayOnlyBeAccessedByLayers("commands", "services", "job", "reports", "store", "settings")
                .check(main);
    }

    @Test
    void noTwoPackagesUseEachOther() {
        slices().matching("dev.nqueens.(*)..").should().beFreeOfCycles().check(main);
    }

    @Test
    void theAlgorithmCoreIsPlainJava() {
        noClasses()
                .that()
                .resideInAnyPackage(
                        "dev.nqueens.board..", "dev.nqueens.solver..", "dev.nqueens.symmetry..", "dev.nqueens.count..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "org.springframework..",
                        "java.sql..",
                        "javax.sql..",
                        "tools.jackson..",
                        "com.fasterxml.jackson..",
                        "org.h2..",
                        "org.postgresql..")
                .check(main);
    }

    @Test
    void theBoardStandsOnNothingOfOurs() {
        classes()
                .that()
                .resideInAPackage("dev.nqueens.board..")
                .should()
                .onlyDependOnClassesThat(describe(
                        "in java.lang, java.util or the board itself",
                        type -> type.getPackageName().startsWith("java.")
                                || type.getPackageName().equals("dev.nqueens.board")))
                .check(main);
    }

    @Test
    void onlyTheH2PackageUsesH2() {
        noClasses()
                .that()
                .resideOutsideOfPackage("dev.nqueens.h2..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.h2..")
                .check(main);
    }
}
