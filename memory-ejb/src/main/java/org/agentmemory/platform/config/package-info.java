/**
 * Configuration: every key documented once in {@link org.agentmemory.api.config.MemorySettings}, read and
 * validated at start-up by {@link org.agentmemory.platform.config.Settings}.
 *
 * <p>Decisions: MicroProfile Config only (system properties, environment, config sources), defaults in
 * code so an empty configuration runs the embedded default; invalid values fail the deployment, never a
 * request.
 */
package org.agentmemory.platform.config;
