package org.agentmemory.it.support;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;

/** JDBC connections to the suite's PostgreSQL databases, for tests that read or set rows directly. */
public final class Databases {

    private Databases() {}

    /** @return a connection to the suite server's database ({@code it.pg.jdbc}) */
    public static Connection suite() throws SQLException {
        return connect(System.getProperty("it.pg.jdbc", "jdbc:postgresql://127.0.0.1:5432/agent_memory_it"));
    }

    /**
     * @param jdbc a database of the suite's PostgreSQL server
     * @return a connection as the suite's user ({@code it.pg.user}, {@code it.pg.password})
     */
    public static Connection connect(String jdbc) throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", System.getProperty("it.pg.user", "postgres"));
        props.setProperty("password", System.getProperty("it.pg.password", "postgres"));
        return new org.postgresql.Driver().connect(jdbc, props);
    }
}
