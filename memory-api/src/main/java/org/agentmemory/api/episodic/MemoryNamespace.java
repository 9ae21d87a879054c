package org.agentmemory.api.episodic;

import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Who an episode belongs to and how far it is shared (spec §10.1 {@code MemoryNamespace}). Ids round-trip
 * exactly: no trimming, no case change.
 *
 * @param tenantId  the tenant; {@code null} becomes {@value #DEFAULT_TENANT}
 * @param agentId   the agent; required, never blank
 * @param userId    the user, or {@code null} when the episode is not tied to a user
 * @param sessionId the session, or {@code null}
 * @param roomId    the room (shared conversation space), or {@code null}
 * @param crewId    the crew (multi-agent workflow), or {@code null}
 */
@Schema(description = "Who an episode belongs to and how far it is shared. Ids round-trip exactly.")
public record MemoryNamespace(
        @Schema(description = "The tenant: over REST the caller's, from its token.")
        String tenantId,

        @Schema(description = "The agent; never null or blank.")
        String agentId,

        @Schema(description = "The user, or null when the episode is not tied to a user.")
        String userId,

        @Schema(description = "The session, or null.") String sessionId,

        @Schema(description = "The room (shared conversation space), or null.")
        String roomId,

        @Schema(description = "The crew (multi-agent workflow), or null.")
        String crewId)
        implements Serializable {

    /** The tenant used when none is given. */
    public static final String DEFAULT_TENANT = "default";

    /**
     * Applies the default tenant and checks the agent id.
     *
     * @throws IllegalArgumentException when {@code agentId} is {@code null} or blank
     */
    public MemoryNamespace {
        if (tenantId == null) {
            tenantId = DEFAULT_TENANT;
        }
        if (agentId == null || agentId.isBlank()) {
            throw new IllegalArgumentException("agentId is " + (agentId == null ? "missing" : "blank")
                    + "; every memory namespace needs the agent it belongs to");
        }
    }

    /**
     * @param tenantId the tenant, or {@code null} for {@value #DEFAULT_TENANT}
     * @param agentId  the agent
     * @return the namespace of the whole agent (no user, session, room or crew)
     */
    public static MemoryNamespace of(String tenantId, String agentId) {
        return new MemoryNamespace(tenantId, agentId, null, null, null, null);
    }

    /**
     * @param newUserId the user id, or {@code null} to remove it
     * @return a copy with the user replaced
     */
    public MemoryNamespace withUser(String newUserId) {
        return new MemoryNamespace(tenantId, agentId, newUserId, sessionId, roomId, crewId);
    }

    /**
     * @param newSessionId the session id, or {@code null} to remove it
     * @return a copy with the session replaced
     */
    public MemoryNamespace withSession(String newSessionId) {
        return new MemoryNamespace(tenantId, agentId, userId, newSessionId, roomId, crewId);
    }

    /**
     * @param newRoomId the room id, or {@code null} to remove it
     * @return a copy with the room replaced
     */
    public MemoryNamespace withRoom(String newRoomId) {
        return new MemoryNamespace(tenantId, agentId, userId, sessionId, newRoomId, crewId);
    }

    /**
     * @param newCrewId the crew id, or {@code null} to remove it
     * @return a copy with the crew replaced
     */
    public MemoryNamespace withCrew(String newCrewId) {
        return new MemoryNamespace(tenantId, agentId, userId, sessionId, roomId, newCrewId);
    }

    /**
     * The narrowest scope, first match wins (spec §10.1 {@code scope_label}): {@code session:{id}}, else
     * {@code room:{id}}, else {@code user:{id}}, else {@code crew:{id}}, else {@code agent:{agentId}}.
     *
     * @return the label, e.g. {@code "room:r-42"}
     */
    public String scopeLabel() {
        if (sessionId != null) {
            return "session:" + sessionId;
        }
        if (roomId != null) {
            return "room:" + roomId;
        }
        if (userId != null) {
            return "user:" + userId;
        }
        if (crewId != null) {
            return "crew:" + crewId;
        }
        return "agent:" + agentId;
    }

    /**
     * The equality filter that selects this namespace's episodes (spec §10.1 {@code build_filter}): always
     * {@code tenantId} and {@code agentId}, plus each of {@code userId}, {@code sessionId}, {@code roomId},
     * {@code crewId} that is not {@code null}. Every entry is an exact equality; an absent key means "any value".
     *
     * <p>Keys are the record component names (which are also the {@code Episode} entity's attribute names),
     * not the reference's snake_case column names, so a query builder can use them directly.
     *
     * @return an unmodifiable, insertion-ordered map in the order above
     */
    public Map<String, String> filter() {
        Map<String, String> filter = new LinkedHashMap<>();
        filter.put("tenantId", tenantId);
        filter.put("agentId", agentId);
        if (userId != null) {
            filter.put("userId", userId);
        }
        if (sessionId != null) {
            filter.put("sessionId", sessionId);
        }
        if (roomId != null) {
            filter.put("roomId", roomId);
        }
        if (crewId != null) {
            filter.put("crewId", crewId);
        }
        return Collections.unmodifiableMap(filter);
    }
}
