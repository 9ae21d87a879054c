package org.agentmemory.api.skills;

import org.agentmemory.api.MemoryException;

/**
 * A skill of that name already exists for the agent (names are unique per agent, issue 35 item 2). REST answers
 * 409. Update the existing skill ({@link #existingSkillId()}) or choose another name.
 */
public class SkillExistsException extends MemoryException {

    private static final long serialVersionUID = 1L;

    private final String existingSkillId;

    /**
     * @param agentId         the agent
     * @param name            the name asked for
     * @param existingSkillId the skill that has it
     */
    public SkillExistsException(String agentId, String name, String existingSkillId) {
        super("Agent " + agentId + " already has a skill named '" + name + "' (skill " + existingSkillId
                + "); update that skill or choose another name.");
        this.existingSkillId = existingSkillId;
    }

    /** @return the id of the skill that has the name */
    public String existingSkillId() {
        return existingSkillId;
    }

    @Override
    public String kind() {
        return "skill-exists";
    }
}
