/**
 * The database schema's life cycle: Flyway applies the versioned migrations of {@code sql/} at start-up
 * and the JPA provider validates the mapping against the result.
 *
 * <p>Decisions: the migrations are the only path to a schema (never provider DDL outside tests); H2 and
 * PostgreSQL have their own migration folders with the same versions; a mismatch fails the deployment.
 */
package org.agentmemory.platform.schema;
