package org.agentmemory.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * {@code memory-web} talks to the service through the {@code memory-api} views only (docs/architecture.md): no
 * resource imports a class of {@code memory-ejb} (its components' boundary, control or entity packages, or its
 * platform wing), so the web module stays a thin REST layer over the same contract remote clients use.
 */
class WebArchitectureTest {

    private static final JavaClasses WEB = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("org.agentmemory");

    @Test
    void theWebModuleImportsNothingOfTheEjbModule() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "org.agentmemory.*.boundary..",
                        "org.agentmemory.*.control..",
                        "org.agentmemory.*.entity..",
                        "org.agentmemory.platform..")
                .check(WEB);
    }
}
