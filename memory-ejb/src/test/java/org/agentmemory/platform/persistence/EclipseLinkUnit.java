package org.agentmemory.platform.persistence;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import jakarta.persistence.Converter;
import jakarta.persistence.Entity;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.SharedCacheMode;
import jakarta.persistence.ValidationMode;
import jakarta.persistence.spi.ClassTransformer;
import jakarta.persistence.spi.PersistenceUnitInfo;
import jakarta.persistence.spi.PersistenceUnitTransactionType;
import java.net.URISyntaxException;
import java.net.URL;
import java.util.List;
import java.util.Properties;
import javax.sql.DataSource;
import org.eclipse.persistence.jpa.PersistenceProvider;

/**
 * An EclipseLink persistence unit over every {@code @Entity} and {@code @Converter} of the main classes, found by
 * scanning them rather than listed, so an entity added later is mapped here without anyone remembering to add it. Built
 * in code ({@link PersistenceUnitInfo}) so the test class path keeps one persistence.xml. No schema generation: the
 * tables are the Flyway migrations', so every mapped column must exist in them.
 */
final class EclipseLinkUnit {

    private static final String ROOT = "org.agentmemory";

    private static final JavaClasses MAIN_CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages(ROOT);

    private EclipseLinkUnit() {}

    /** @return the names of every entity class of the main classes, sorted */
    static List<String> entityClassNames() {
        return mainClassesAnnotatedWith(Entity.class);
    }

    /**
     * @param dataSource a migrated database
     * @return a resource-local EclipseLink unit over every entity and converter of the main classes
     */
    static EntityManagerFactory over(DataSource dataSource) {
        List<String> managed = new java.util.ArrayList<>(entityClassNames());
        managed.addAll(mainClassesAnnotatedWith(Converter.class));
        Properties properties = new Properties();
        properties.put("eclipselink.weaving", "false");
        properties.put("eclipselink.logging.level", "WARNING");
        properties.put("eclipselink.ddl-generation", "none");
        properties.put("jakarta.persistence.schema-generation.database.action", "none");
        // Every find after a clear reads the row, not EclipseLink's shared cache.
        properties.put("eclipselink.cache.shared.default", "false");
        // Fail at start-up, not at first use, when a mapping is wrong.
        properties.put("eclipselink.deploy-on-startup", "true");
        return new PersistenceProvider().createContainerEntityManagerFactory(new Info(managed, dataSource), properties);
    }

    private static List<String> mainClassesAnnotatedWith(Class<? extends java.lang.annotation.Annotation> annotation) {
        return MAIN_CLASSES.stream()
                .filter(c -> c.isAnnotatedWith(annotation))
                .map(JavaClass::getName)
                .sorted()
                .toList();
    }

    private record Info(List<String> managedClassNames, DataSource dataSource) implements PersistenceUnitInfo {

        @Override
        public String getPersistenceUnitName() {
            return "memory-eclipselink-all";
        }

        @Override
        public String getPersistenceProviderClassName() {
            return PersistenceProvider.class.getName();
        }

        @Override
        public PersistenceUnitTransactionType getTransactionType() {
            return PersistenceUnitTransactionType.RESOURCE_LOCAL;
        }

        @Override
        public DataSource getJtaDataSource() {
            return null;
        }

        @Override
        public DataSource getNonJtaDataSource() {
            return dataSource;
        }

        @Override
        public List<String> getMappingFileNames() {
            return List.of();
        }

        @Override
        public List<URL> getJarFileUrls() {
            return List.of();
        }

        @Override
        public URL getPersistenceUnitRootUrl() {
            // The main classes' root (target/classes), where the entities are.
            try {
                return org.agentmemory.platform.schema.SchemaMigration.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .toURI()
                        .toURL();
            } catch (URISyntaxException | java.net.MalformedURLException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public List<String> getManagedClassNames() {
            return managedClassNames;
        }

        @Override
        public boolean excludeUnlistedClasses() {
            return true;
        }

        @Override
        public SharedCacheMode getSharedCacheMode() {
            return SharedCacheMode.UNSPECIFIED;
        }

        @Override
        public ValidationMode getValidationMode() {
            return ValidationMode.NONE;
        }

        @Override
        public Properties getProperties() {
            return new Properties();
        }

        @Override
        public String getPersistenceXMLSchemaVersion() {
            return "3.0";
        }

        @Override
        public ClassLoader getClassLoader() {
            return EclipseLinkUnit.class.getClassLoader();
        }

        @Override
        public void addTransformer(ClassTransformer transformer) {
            // No weaving (eclipselink.weaving=false).
        }

        @Override
        public ClassLoader getNewTempClassLoader() {
            return EclipseLinkUnit.class.getClassLoader();
        }
    }
}
