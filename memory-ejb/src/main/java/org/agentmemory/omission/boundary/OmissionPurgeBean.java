package org.agentmemory.omission.boundary;

import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;
import java.util.logging.Logger;
import org.agentmemory.omission.control.OmissionStore;

/**
 * Deletes expired omissions every 10 minutes (spec §7.3 TTL). Reads already hide expired content, so the
 * timer only reclaims space; it is non-persistent and idempotent, safe to run on every server of a cluster.
 */
@Singleton
public class OmissionPurgeBean {

    private static final Logger LOG = Logger.getLogger(OmissionPurgeBean.class.getName());

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    /** Runs every 10 minutes. */
    @Schedule(minute = "*/10", hour = "*", persistent = false, info = "omission TTL purge")
    public void purge() {
        int removed = new OmissionStore(em).purgeExpired(Instant.now());
        if (removed > 0) {
            LOG.info(() -> "Purged " + removed + " expired omissions");
        }
    }
}
