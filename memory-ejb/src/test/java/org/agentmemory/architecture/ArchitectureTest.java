package org.agentmemory.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.Optional;
import org.agentmemory.platform.Pure;
import org.junit.jupiter.api.Test;

/**
 * The architecture rules of {@code memory-ejb} (docs/architecture.md), checked on the compiled main classes:
 * components ({@code org.agentmemory.<component>.{boundary,control,entity}}) depend on each other in one direction,
 * the platform wing ({@code org.agentmemory.platform.*}) depends on no component, a component's boundary reaches other
 * components only through their boundaries, and packages marked {@link Pure} use no container, persistence, JDBC or
 * REST types. A failure names every offending dependency.
 */
class ArchitectureTest {

    private static final String ROOT = "org.agentmemory";
    private static final String PLATFORM = ROOT + ".platform";
    private static final String API = ROOT + ".api";

    static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages(ROOT);

    /**
     * @param javaClass a class of this module
     * @return its component ({@code conversation}, {@code recall}, …), or empty for the platform wing and the API
     */
    static Optional<String> component(JavaClass javaClass) {
        String name = javaClass.getPackageName();
        if (!name.startsWith(ROOT + ".") || name.startsWith(PLATFORM) || name.startsWith(API)) {
            return Optional.empty();
        }
        String rest = name.substring(ROOT.length() + 1);
        int dot = rest.indexOf('.');
        return Optional.of(dot < 0 ? rest : rest.substring(0, dot));
    }

    /** @return the layer of a component's class: {@code boundary}, {@code control} or {@code entity} */
    static String layer(JavaClass javaClass) {
        String[] parts = javaClass.getPackageName().split("\\.");
        return parts.length > 3 ? parts[3] : "";
    }

    static final DescribedPredicate<JavaClass> IN_A_COMPONENT =
            DescribedPredicate.describe("in a component", c -> component(c).isPresent());

    @Test
    void componentsDependOnEachOtherInOneDirection() {
        slices().matching(ROOT + ".(*)..")
                .namingSlices("component $1")
                .should()
                .beFreeOfCycles()
                .check(CLASSES);
    }

    @Test
    void thePlatformWingDependsOnNoComponent() {
        noClasses()
                .that()
                .resideInAPackage(PLATFORM + "..")
                .should()
                .dependOnClassesThat(IN_A_COMPONENT)
                .because("the platform wing is shared by every component (docs/architecture.md)")
                .check(CLASSES);
    }

    @Test
    void thePlatformWingsPackagesDependOnEachOtherInOneDirection() {
        slices().matching(PLATFORM + ".(*)..")
                .namingSlices("platform.$1")
                .should()
                .beFreeOfCycles()
                .check(CLASSES);
    }

    @Test
    void aBoundaryReachesOtherComponentsOnlyThroughTheirBoundaries() {
        ArchRule rule = classes()
                .that(IN_A_COMPONENT)
                .and()
                .resideInAPackage("..boundary..")
                .should(new ArchCondition<>("depend on no other component's control or entity") {
                    @Override
                    public void check(JavaClass item, ConditionEvents events) {
                        String own = component(item).orElseThrow();
                        for (Dependency d : item.getDirectDependenciesFromSelf()) {
                            JavaClass target = d.getTargetClass();
                            Optional<String> other = component(target);
                            String targetLayer = layer(target);
                            if (other.isPresent()
                                    && !other.get().equals(own)
                                    && (targetLayer.equals("control") || targetLayer.equals("entity"))) {
                                events.add(SimpleConditionEvent.violated(d, d.getDescription()));
                            }
                        }
                    }
                });
        rule.check(CLASSES);
    }

    @Test
    void withinAComponentBoundaryUsesControlUsesEntity() {
        noClasses()
                .that(IN_A_COMPONENT)
                .and()
                .resideInAPackage("..entity..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("..boundary..", "..control..")
                .check(CLASSES);
        noClasses()
                .that(IN_A_COMPONENT)
                .and()
                .resideInAPackage("..control..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("..boundary..")
                .check(CLASSES);
    }

    @Test
    void packagesMarkedPureUseNoContainerPersistenceJdbcOrRestTypes() {
        DescribedPredicate<JavaClass> inPurePackage = DescribedPredicate.describe(
                "in a package marked @Pure", c -> c.getPackage().isAnnotatedWith(Pure.class));
        noClasses()
                .that(inPurePackage)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "jakarta.persistence..",
                        "jakarta.ejb..",
                        "jakarta.ws.rs..",
                        "jakarta.enterprise..",
                        "jakarta.transaction..",
                        "java.sql..",
                        "org.hibernate..")
                .check(CLASSES);
    }

    @Test
    void somePackagesAreMarkedPure() {
        // The rule above checks nothing when no package carries the mark: keep it honest.
        classes()
                .that()
                .resideInAnyPackage(
                        ROOT + ".compaction.control",
                        ROOT + ".context.control",
                        ROOT + ".working.control",
                        PLATFORM + ".text",
                        PLATFORM + ".tokens",
                        PLATFORM + ".ranking",
                        PLATFORM + ".lease")
                .should(new ArchCondition<>("reside in a package marked @Pure") {
                    @Override
                    public void check(JavaClass item, ConditionEvents events) {
                        if (!item.getPackage().isAnnotatedWith(Pure.class)) {
                            events.add(SimpleConditionEvent.violated(
                                    item, item.getPackageName() + " is not marked" + " @Pure"));
                        }
                    }
                })
                .check(CLASSES);
    }
}
