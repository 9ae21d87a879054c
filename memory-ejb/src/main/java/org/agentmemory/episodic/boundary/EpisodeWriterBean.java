package org.agentmemory.episodic.boundary;

import jakarta.ejb.LocalBean;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.agentmemory.api.episodic.Episode;
import org.agentmemory.episodic.control.EpisodeMapper;
import org.agentmemory.episodic.control.EpisodeStore;

/**
 * Stores assembled, embedded episodes in one short transaction; the slow work (reflection, embedding) is done
 * before it by {@link EpisodicMemoryBean}. Deduplicates on the content key: content already stored in the
 * namespace is answered with the stored episode, unchanged.
 */
@Stateless
@LocalBean
public class EpisodeWriterBean {

    /**
     * One episode ready to store.
     *
     * @param episode    the assembled episode
     * @param contentKey its deduplication key
     * @param vector     its embedding, or {@code null} when embedding failed
     * @param model      the embedding model's name
     */
    public record Pending(Episode episode, String contentKey, float[] vector, String model) {}

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @jakarta.inject.Inject
    org.agentmemory.platform.config.Settings settings;

    /**
     * @param pending the episodes, in order
     * @return the stored (or previously stored identical) episodes, in order
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public List<Episode> store(List<Pending> pending) {
        EpisodeStore store = new EpisodeStore(em);
        // Which contents are stored already, asked before the first insert (a query between inserts would flush
        // them one by one and defeat JDBC batching).
        List<String> tenants = new ArrayList<>(pending.size());
        List<String> keys = new ArrayList<>(pending.size());
        for (Pending p : pending) {
            tenants.add(p.episode().namespace().tenantId());
            keys.add(p.contentKey());
        }
        Map<String, org.agentmemory.episodic.entity.Episode> found = store.findStored(tenants, keys);
        Map<String, Episode> byKey = new HashMap<>();
        List<Episode> stored = new ArrayList<>(pending.size());
        for (Pending p : pending) {
            String dedupe = EpisodeStore.storedKey(p.episode().namespace().tenantId(), p.contentKey());
            Episode earlier = byKey.get(dedupe);
            if (earlier == null) {
                org.agentmemory.episodic.entity.Episode existing = found.get(dedupe);
                if (existing != null) {
                    earlier = EpisodeMapper.toRecord(existing);
                } else {
                    store.insert(EpisodeMapper.toEntity(p.episode(), p.contentKey(), p.vector(), p.model()));
                    earlier = p.episode();
                }
                byKey.put(dedupe, earlier);
            }
            stored.add(earlier);
        }
        return stored;
    }

    /**
     * Stores through the container, once more when the first transaction fails: most likely a concurrent call stored
     * the same content first (both looked before either committed) and the unique content key refused this insert,
     * so the second call finds the winner's episode and answers it unchanged, instead of a 500. Any other failure
     * fails again and reaches the caller.
     *
     * @param proxy   the injected writer (its business object, never {@code this})
     * @param pending the episodes, in order
     * @return the stored (or previously stored identical) episodes, in order
     * @throws jakarta.ejb.EJBException when the second attempt fails too
     */
    static List<Episode> storeThrough(EpisodeWriterBean proxy, List<Pending> pending) {
        try {
            return proxy.store(pending);
        } catch (jakarta.ejb.EJBException raceLost) {
            java.util.logging.Logger.getLogger(EpisodeWriterBean.class.getName())
                    .log(java.util.logging.Level.FINE, "Storing episodes failed; storing them again", raceLost);
            return proxy.store(pending);
        }
    }

    /**
     * Embeds again, with the configured model, up to {@code max} episodes another model embedded, in the caller's
     * transaction (the background embedder's, {@code MessageEmbeddingBean}).
     *
     * @param max at most this many
     * @return how many were embedded again (0: none left)
     */
    public int reembedOtherModels(int max) {
        return new EpisodeStore(em).reembedOtherModels(settings.embeddingModel(), max);
    }
}
