package org.agentmemory.api.skills;

import java.io.Serializable;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A skill found by a search.
 *
 * @param skill the skill
 * @param score its reciprocal-rank-fusion score over the full-text and vector legs, Σ 1/(60 + rank); higher is better
 */
@Schema(description = "A skill found by a search.")
public record SkillHit(
        @Schema(description = "The skill.") Skill skill,

        @Schema(
                description = "Reciprocal-rank-fusion score over the full-text and vector legs, sum of 1/(60 + rank);"
                        + " higher is better.")
        double score)
        implements Serializable {}
