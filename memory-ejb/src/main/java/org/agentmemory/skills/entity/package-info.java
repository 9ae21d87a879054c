/** The skills' table with its search mapping, and the registry of agents (issue 35 items 2 and 3). */
package org.agentmemory.skills.entity;
