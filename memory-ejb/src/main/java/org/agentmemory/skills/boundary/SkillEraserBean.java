package org.agentmemory.skills.boundary;

import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.agentmemory.api.skills.SkillSource;
import org.agentmemory.skills.entity.Skill;

/**
 * Right to erasure in extracted skills (issues 34 item 4 and 35 item 2): a skill the dream cycle extracted carries the
 * lessons of the episodes it cites, so when any of them is erased the skill is deleted with its search-index
 * documents; the next cycle extracts it again from the episodes that remain, if they still make a cluster. Skills
 * written by callers ({@code manual}) are theirs and stay.
 */
@Stateless
@LocalBean
public class SkillEraserBean {

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    /**
     * Deletes the tenant's extracted skills that cite any of the given episodes, in the caller's transaction (the one
     * that deleted the episodes, after it did: an extraction that read them either committed first and its skill is
     * found here, or finds them gone, see {@link SkillWriterBean#upsertExtracted}).
     *
     * @param tenantId   the tenant
     * @param episodeIds public ids of erased episodes; empty deletes nothing
     * @return how many skills were deleted
     */
    @TransactionAttribute(TransactionAttributeType.MANDATORY)
    public int forgetEpisodes(String tenantId, Collection<String> episodeIds) {
        if (episodeIds.isEmpty()) {
            return 0;
        }
        Set<String> cited = new HashSet<>();
        for (String id : episodeIds) {
            cited.add(SkillWriterBean.EPISODE + id);
        }
        List<Skill> extracted = em.createQuery(
                        "SELECT s FROM Skill s WHERE s.tenantId = :t AND s.source = :s ORDER BY s.id", Skill.class)
                .setParameter("t", tenantId)
                .setParameter("s", SkillWriterBean.source(SkillSource.EXTRACTED))
                .getResultList();
        int deleted = 0;
        for (Skill skill : extracted) {
            for (String ref : skill.getEvidence()) {
                if (cited.contains(ref)) {
                    em.remove(skill);
                    deleted++;
                    break;
                }
            }
        }
        return deleted;
    }
}
