package org.agentmemory.episodic.control;

import org.agentmemory.api.episodic.EpisodeCategory;
import org.agentmemory.api.episodic.EpisodeOutcome;
import org.agentmemory.api.episodic.LessonSource;
import org.agentmemory.api.episodic.MemoryNamespace;
import org.agentmemory.episodic.entity.Episode;

/**
 * Converts between the stored {@link Episode} entity and the transfer record
 * {@link org.agentmemory.api.episodic.Episode}.
 */
public final class EpisodeMapper {

    private EpisodeMapper() {}

    /**
     * @param episode    the assembled episode
     * @param contentKey its deduplication key
     * @param vector     its embedding, or {@code null}
     * @param model      the embedding model's name, or {@code null}
     * @return a new entity (not persisted)
     */
    public static Episode toEntity(
            org.agentmemory.api.episodic.Episode episode, String contentKey, float[] vector, String model) {
        MemoryNamespace ns = episode.namespace();
        Episode entity = new Episode(episode.episodeId(), ns.tenantId(), ns.agentId(), contentKey);
        entity.setScope(ns.userId(), ns.sessionId(), ns.roomId(), ns.crewId());
        entity.setTimes(episode.createdAt(), episode.updatedAt(), episode.expiresAt());
        entity.setContent(
                episode.situation(),
                episode.actionTaken(),
                episode.outcome().value(),
                episode.outcomeDetails(),
                episode.errorType(),
                episode.errorMessage());
        entity.setReflection(
                episode.reflection(),
                episode.lessonLearned(),
                episode.suggestedAction(),
                episode.lessonSource() == null ? null : episode.lessonSource().value());
        entity.setClassification(episode.category().value(), episode.importance(), episode.isFailure());
        entity.setRelated(episode.relatedTools(), episode.relatedEntities());
        entity.setMetadata(episode.metadata());
        entity.setEmbedding(vector, vector == null ? null : model);
        return entity;
    }

    /**
     * @param entity a stored episode
     * @return its transfer record
     */
    public static org.agentmemory.api.episodic.Episode toRecord(Episode entity) {
        MemoryNamespace ns = new MemoryNamespace(
                entity.getTenantId(),
                entity.getAgentId(),
                entity.getUserId(),
                entity.getSessionId(),
                entity.getRoomId(),
                entity.getCrewId());
        return new org.agentmemory.api.episodic.Episode(
                entity.getEpisodeId(),
                ns,
                entity.getCreatedAt(),
                entity.getUpdatedAt(),
                entity.getExpiresAt(),
                entity.getSituation(),
                entity.getActionTaken(),
                EpisodeOutcome.fromValue(entity.getOutcome()),
                entity.getOutcomeDetails(),
                entity.getErrorType(),
                entity.getErrorMessage(),
                entity.getReflection(),
                entity.getLessonLearned(),
                entity.getSuggestedAction(),
                entity.getLessonSource() == null ? null : LessonSource.fromValue(entity.getLessonSource()),
                EpisodeCategory.fromValue(entity.getCategory()),
                entity.getImportance(),
                entity.isFailure(),
                entity.getRelatedTools(),
                entity.getRelatedEntities(),
                entity.getMetadata());
    }

    /**
     * Whether a stored episode belongs to a namespace (spec §10.1 {@code build_filter}: tenant and agent
     * always, the other fields when the namespace sets them).
     *
     * @param entity    the episode
     * @param namespace the namespace
     * @return whether every set field is equal
     */
    public static boolean inNamespace(Episode entity, MemoryNamespace namespace) {
        return namespace.tenantId().equals(entity.getTenantId())
                && namespace.agentId().equals(entity.getAgentId())
                && (namespace.userId() == null || namespace.userId().equals(entity.getUserId()))
                && (namespace.sessionId() == null || namespace.sessionId().equals(entity.getSessionId()))
                && (namespace.roomId() == null || namespace.roomId().equals(entity.getRoomId()))
                && (namespace.crewId() == null || namespace.crewId().equals(entity.getCrewId()));
    }
}
