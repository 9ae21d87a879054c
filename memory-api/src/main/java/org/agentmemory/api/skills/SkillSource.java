package org.agentmemory.api.skills;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Where a skill came from. JSON form: lower case ({@code manual}, {@code extracted}). */
@Schema(
        description = "Where a skill came from: manual (written by a caller) or extracted (distilled by the dream"
                + " cycle from the agent's successful episodes).")
public enum SkillSource {
    /** Written by a caller ({@code POST /skills}). */
    MANUAL,
    /** Distilled by the dream cycle from a cluster of the agent's successful episodes ({@code skill_auto_extract}). */
    EXTRACTED
}
