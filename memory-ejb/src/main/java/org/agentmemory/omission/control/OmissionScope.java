package org.agentmemory.omission.control;

/**
 * Whose omissions: one conversation of one tenant (spec §7.2 keys the store by session, which is exactly one
 * conversation row here, so no string key can collide).
 *
 * @param tenantId       the conversation's tenant
 * @param conversationId the conversation's id
 */
public record OmissionScope(String tenantId, long conversationId) {}
