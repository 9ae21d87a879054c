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
 * A persistence unit over every {@code @Entity} and {@code @Converter} of the main classes, found by scanning them
 * rather than listed, so an entity added later is mapped here without anyone remembering to add it; under either
 * provider the service must run on ({@link Provider}). Built in code ({@link PersistenceUnitInfo}) so the test class
 * path keeps one persistence.xml. No schema generation: the tables are the Flyway migrations', so every mapped column
 * must exist in them.
 */
final class ScannedUnit {

    /** The two persistence providers: Hibernate ORM (WildFly, and bundled on Liberty) and EclipseLink (Liberty's default). */
    enum Provider {
        /** Hibernate ORM; the unit also validates the mapping against the tables ({@code hbm2ddl.auto=validate}). */
        HIBERNATE("org.hibernate.jpa.HibernatePersistenceProvider"),
        /** EclipseLink, without weaving and with the shared cache off. */
        ECLIPSELINK(PersistenceProvider.class.getName());

        final String className;

        Provider(String className) {
            this.className = className;
        }
    }

    private static final String ROOT = "org.agentmemory";

    private static final JavaClasses MAIN_CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages(ROOT);

    private ScannedUnit() {}

    /** @return the names of every entity class of the main classes, sorted */
    static List<String> entityClassNames() {
        return mainClassesAnnotatedWith(Entity.class);
    }

    /**
     * @param provider   the persistence provider
     * @param dataSource a migrated database
     * @return a resource-local unit of that provider over every entity and converter of the main classes
     * @throws jakarta.persistence.PersistenceException when a mapping does not fit the tables (Hibernate validates at
     *                                                  start-up; EclipseLink fails on first use of the mapping)
     */
    static EntityManagerFactory over(Provider provider, DataSource dataSource) {
        List<String> managed = new java.util.ArrayList<>(entityClassNames());
        managed.addAll(mainClassesAnnotatedWith(Converter.class));
        Properties properties = new Properties();
        properties.put("jakarta.persistence.schema-generation.database.action", "none");
        Info info = new Info(provider.className, managed, dataSource);
        if (provider == Provider.HIBERNATE) {
            // The production settings that change SQL or values (persistence.xml), and Hibernate's own check that
            // every mapped table and column exists with a compatible type.
            properties.put("hibernate.hbm2ddl.auto", "validate");
            properties.put("hibernate.jdbc.time_zone", "UTC");
            properties.put("hibernate.search.enabled", "false");
            return new org.hibernate.jpa.HibernatePersistenceProvider()
                    .createContainerEntityManagerFactory(info, properties);
        }
        properties.put("eclipselink.weaving", "false");
        properties.put("eclipselink.logging.level", "WARNING");
        properties.put("eclipselink.ddl-generation", "none");
        // Every find after a clear reads the row, not EclipseLink's shared cache.
        properties.put("eclipselink.cache.shared.default", "false");
        // Fail at start-up, not at first use, when a mapping is wrong.
        properties.put("eclipselink.deploy-on-startup", "true");
        return new PersistenceProvider().createContainerEntityManagerFactory(info, properties);
    }

    private static List<String> mainClassesAnnotatedWith(Class<? extends java.lang.annotation.Annotation> annotation) {
        return MAIN_CLASSES.stream()
                .filter(c -> c.isAnnotatedWith(annotation))
                .map(JavaClass::getName)
                .sorted()
                .toList();
    }

    private record Info(String providerClassName, List<String> managedClassNames, DataSource dataSource)
            implements PersistenceUnitInfo {

        @Override
        public String getPersistenceUnitName() {
            // One name per unit: EclipseLink keeps one session per name (and URL), so a second unit of the same name
            // would silently reuse the first one's database.
            return "memory-scanned-" + providerClassName.hashCode() + "-" + System.identityHashCode(dataSource);
        }

        @Override
        public String getPersistenceProviderClassName() {
            return providerClassName;
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
            return ScannedUnit.class.getClassLoader();
        }

        @Override
        public void addTransformer(ClassTransformer transformer) {
            // No weaving (eclipselink.weaving=false) and no Hibernate enhancement.
        }

        @Override
        public ClassLoader getNewTempClassLoader() {
            return ScannedUnit.class.getClassLoader();
        }
    }
}
