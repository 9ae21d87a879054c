/** Answer memory entity. */
package org.agentmemory.answer.entity;
