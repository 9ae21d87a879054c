package org.agentmemory.api.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The packages of {@code memory-api} depend on each other in one direction: no two import each other. */
class ApiArchitectureTest {

    @Test
    void apiPackagesAreFreeOfCycles() {
        JavaClasses api = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
                .importPackages("org.agentmemory.api");
        slices().matching("org.agentmemory.api.(*)..")
                .namingSlices("api.$1")
                .should()
                .beFreeOfCycles()
                .check(api);
    }
}
