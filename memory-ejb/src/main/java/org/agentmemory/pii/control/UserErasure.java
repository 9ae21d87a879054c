package org.agentmemory.pii.control;

/**
 * What erasing a user's PII threads removed from one store (issue 34 item 4).
 *
 * @param threads    threads removed
 * @param detections detections they held
 */
public record UserErasure(long threads, long detections) {

    /**
     * @param other what another store removed
     * @return both summed
     */
    public UserErasure plus(UserErasure other) {
        return new UserErasure(threads + other.threads, detections + other.detections);
    }
}
