package org.agentmemory.api.skills;

import jakarta.ejb.Remote;

/**
 * Remote view of the skills registry
 * ({@code ejb:agent-memory/memory-ejb/SkillRegistryBean!org.agentmemory.api.skills.SkillRegistryRemote}).
 */
@Remote
public interface SkillRegistryRemote extends SkillRegistryOperations {}
