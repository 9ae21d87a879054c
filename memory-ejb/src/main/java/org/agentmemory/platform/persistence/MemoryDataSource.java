package org.agentmemory.platform.persistence;

import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The memory database's datasource, looked up by the JNDI name in MicroProfile Config key {@value #KEY} (default
 * {@value #DEFAULT_NAME}, WildFly's, which persistence.xml names too). Open Liberty cannot bind a name under
 * {@code java:jboss/}: its server.xml binds {@code jdbc/MemoryDS} and sets this key to it (a server.xml variable is a
 * MicroProfile Config source on Liberty), so the beans that need plain JDBC look the datasource up here rather
 * than through {@code @Resource(lookup = …)}, which would fix the name at compile time.
 */
public final class MemoryDataSource {

    /** The configuration key of the datasource's JNDI name. */
    public static final String KEY = "memory.datasource";

    /** WildFly's name of the datasource (config/wildfly/datasource-*.cli). */
    public static final String DEFAULT_NAME = "java:jboss/datasources/MemoryDS";

    private MemoryDataSource() {}

    /** @return the memory database's datasource */
    public static DataSource lookup() {
        String name = ConfigProvider.getConfig()
                .getOptionalValue(KEY, String.class)
                .orElse(DEFAULT_NAME)
                .strip();
        try {
            return InitialContext.doLookup(name);
        } catch (NamingException e) {
            throw new IllegalStateException("No datasource at " + name + " (" + KEY + "): " + e.getMessage(), e);
        }
    }
}
