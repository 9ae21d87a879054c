/** The audit trail's table. */
package org.agentmemory.audit.entity;
