package org.agentmemory.episodic.boundary;

import jakarta.ejb.EJB;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import java.util.logging.Logger;
import org.agentmemory.api.episodic.EpisodicMemory;

/**
 * Deletes expired episodes every 15 minutes (spec §10.3 {@code cleanup_expired}). Reads and recall already
 * leave expired episodes out, so the timer only reclaims space; it is non-persistent and idempotent, safe on
 * every server of a cluster.
 */
@Singleton
public class EpisodeExpiryBean {

    private static final Logger LOG = Logger.getLogger(EpisodeExpiryBean.class.getName());

    @EJB
    EpisodicMemory episodic;

    /** Runs every 15 minutes. */
    @Schedule(minute = "*/15", hour = "*", persistent = false, info = "episode TTL cleanup")
    public void cleanup() {
        long removed = episodic.cleanupExpired();
        if (removed > 0) {
            LOG.info(() -> "Deleted " + removed + " expired episodes");
        }
    }
}
