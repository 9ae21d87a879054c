package org.agentmemory.api.skills;

import jakarta.ejb.Local;

/**
 * Local view of the skills registry
 * ({@code java:global/agent-memory/memory-ejb/SkillRegistryBean!org.agentmemory.api.skills.SkillRegistry}).
 */
@Local
public interface SkillRegistry extends SkillRegistryOperations {}
