/**
 * The configuration contract: every key the service reads, with meaning, type, unit and default, in one
 * place that operators, the README and both modules share.
 */
package org.agentmemory.api.config;
