package org.agentmemory.api.skills;

import java.util.List;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.RequiresRole;
import org.agentmemory.api.VersionConflictException;
import org.agentmemory.api.conversation.Page;

/**
 * The skills of an agent (spec §9.1, §9.3 branch 2; issue 35 item 2). Every operation is scoped to
 * {@code (tenantId, agentId)}: another agent's or tenant's skill is never read, changed or found, and its id answers
 * as one that does not exist. Agent ids follow the id rules (1–128 code points, no control characters); texts the
 * limits of {@link SkillInput}. Texts are stored and searched as given (no normalization).
 *
 * <p>Search is hybrid, as episodic recall: a full-text leg over name, description and instructions (English
 * analysis) and a vector leg over the skill's embedding (name, description, tools and instructions, the episodes'
 * embedding model), fused by reciprocal rank (Σ 1/(60 + rank)); a vector hit counts only at cosine ≥
 * {@value #MIN_COSINE}. When the model fails, search answers from the full-text leg alone.
 */
public interface SkillRegistryOperations {

    /** Most hits of one search. */
    int MAX_TOP_K = 100;

    /** Least cosine of a vector-leg hit: k-NN always answers its nearest skills, related or not. */
    double MIN_COSINE = 0.35;

    /** Longest rendering of one skill's instructions in the skills section, code points (spec §9.2 budget). */
    int SECTION_INSTRUCTIONS = 1_200;

    /**
     * Creates a manual skill. Sending the same skill again (a manual skill of that name with exactly these fields)
     * answers the stored one unchanged, so a retried create is harmless.
     *
     * @param tenantId the caller's tenant
     * @param agentId  the agent
     * @param input    the skill
     * @return the stored skill, version 1, source {@link SkillSource#MANUAL}
     * @throws InvalidInputException when a field breaks a rule (named: {@code name}, {@code tools[3]}, …)
     * @throws SkillExistsException  when the agent already has another skill of that name
     */
    @RequiresRole(RequiresRole.WRITER)
    Skill createSkill(String tenantId, String agentId, SkillInput input)
            throws InvalidInputException, SkillExistsException;

    /**
     * @param tenantId the caller's tenant
     * @param agentId  the agent
     * @param skillId  the skill
     * @return the skill
     * @throws NotFoundException     when the agent has no such skill in the tenant
     * @throws InvalidInputException when the agent id breaks the id rules
     */
    @RequiresRole(RequiresRole.READER)
    Skill getSkill(String tenantId, String agentId, String skillId) throws NotFoundException, InvalidInputException;

    /**
     * @param tenantId the caller's tenant
     * @param agentId  the agent
     * @param source   only skills of this source, or {@code null} for all
     * @param limit    1 to 1,000
     * @param cursor   {@code nextCursor} of the previous page, or {@code null}
     * @return the agent's skills, newest first
     * @throws InvalidInputException when the agent id, limit or cursor breaks a rule
     */
    @RequiresRole(RequiresRole.READER)
    Page<Skill> listSkills(String tenantId, String agentId, SkillSource source, int limit, String cursor)
            throws InvalidInputException;

    /**
     * Replaces a skill's fields (a rename included); the version grows by one when anything changed, and the source
     * becomes {@link SkillSource#MANUAL} (the dream cycle then leaves the skill alone).
     *
     * @param tenantId        the caller's tenant
     * @param agentId         the agent
     * @param skillId         the skill
     * @param input           the new fields
     * @param expectedVersion the version the change is based on, or {@code -1} for an unconditional change
     * @return the skill after the change
     * @throws NotFoundException        when the agent has no such skill
     * @throws InvalidInputException    when a field breaks a rule
     * @throws VersionConflictException when {@code expectedVersion} is not the stored version (nothing written)
     * @throws SkillExistsException     when the new name is another skill's
     */
    @RequiresRole(RequiresRole.WRITER)
    Skill updateSkill(String tenantId, String agentId, String skillId, SkillInput input, long expectedVersion)
            throws NotFoundException, InvalidInputException, VersionConflictException, SkillExistsException;

    /**
     * @param tenantId the caller's tenant
     * @param agentId  the agent
     * @param skillId  the skill
     * @throws NotFoundException     when the agent has no such skill
     * @throws InvalidInputException when the agent id breaks the id rules
     */
    @RequiresRole(RequiresRole.WRITER)
    void deleteSkill(String tenantId, String agentId, String skillId) throws NotFoundException, InvalidInputException;

    /**
     * Hybrid search of the agent's skills (see the class comment).
     *
     * @param tenantId the caller's tenant
     * @param agentId  the agent
     * @param query    the query; {@code null} or blank finds nothing
     * @param topK     1 to {@value #MAX_TOP_K}
     * @return at most {@code topK} hits, best first
     * @throws InvalidInputException when the agent id or {@code topK} breaks a rule, or the query holds a NUL
     */
    @RequiresRole(RequiresRole.READER)
    List<SkillHit> searchSkills(String tenantId, String agentId, String query, int topK) throws InvalidInputException;

    /**
     * The skills section of an assembled context (spec §9.3 branch 2 {@code get_relevant_skills}): the agent's best
     * {@code maxSkills} skills for the query, each as {@code ### {name}} LF description, then {@code Tools: a, b}
     * when it has tools, then {@code Instructions:} LF its instructions (cut to {@value #SECTION_INSTRUCTIONS} code
     * points with {@code ...}), skills separated by a blank line; without the {@code <relevant_skills>} tags, which
     * the assembly adds (spec §9.2 notes the reference nested them twice).
     *
     * @param tenantId  the caller's tenant
     * @param agentId   the agent
     * @param query     the query; blank finds nothing
     * @param maxSkills 0 to {@value #MAX_TOP_K}; 0 answers {@code ""}
     * @return the section text, or {@code ""} when no skill matches
     * @throws InvalidInputException when the agent id or {@code maxSkills} breaks a rule
     */
    @RequiresRole(RequiresRole.READER)
    String relevantSkills(String tenantId, String agentId, String query, int maxSkills) throws InvalidInputException;
}
