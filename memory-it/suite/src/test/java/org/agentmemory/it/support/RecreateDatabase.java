package org.agentmemory.it.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Drops and creates the integration tests' PostgreSQL databases before the servers start.
 * Arguments: host port user databases [password], databases separated by commas.
 */
public final class RecreateDatabase {

    private RecreateDatabase() {}

    public static void main(String[] args) throws SQLException {
        String url = "jdbc:postgresql://" + args[0] + ":" + args[1] + "/postgres";
        for (String database : args[3].split(",")) {
            if (!database.matches("[a-z_][a-z0-9_]*")) {
                throw new IllegalArgumentException("database name must be a plain identifier: " + database);
            }
            try (Connection admin = DriverManager.getConnection(url, args[2], args.length > 4 ? args[4] : "");
                    Statement st = admin.createStatement()) {
                st.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
                st.execute("CREATE DATABASE " + database + " ENCODING 'UTF8'");
            }
            System.out.println("Recreated PostgreSQL database " + database + " at " + args[0] + ":" + args[1]);
        }
    }
}
