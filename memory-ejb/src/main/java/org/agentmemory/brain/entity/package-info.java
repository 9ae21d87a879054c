/** The brain pages' table and its search mapping (issue 33). */
package org.agentmemory.brain.entity;
