package org.agentmemory.brain.control;

import java.time.Instant;
import java.util.Collections;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * One statement of a brain page, with the evidence that supports it and its history (issue 33 item 1).
 *
 * @param text         the statement as first asserted, without its bullet; never blank
 * @param evidence     what supports it: {@code episode:<id>} and {@code turn:<conversation>/<turn>} references,
 *                     sorted; never {@code null}
 * @param assertedAt   when it was first asserted
 * @param supersededAt when newer evidence contradicted it, or {@code null} while it is current
 * @param supersededBy the evidence of the contradicting statement; empty while current
 */
public record Statement(
        String text, Set<String> evidence, Instant assertedAt, Instant supersededAt, Set<String> supersededBy) {

    public Statement {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(assertedAt, "assertedAt");
        // Sorted, so that the stored JSON and every answer list references in one order.
        evidence = Collections.unmodifiableSortedSet(new TreeSet<>(evidence == null ? Set.of() : evidence));
        supersededBy = Collections.unmodifiableSortedSet(new TreeSet<>(supersededBy == null ? Set.of() : supersededBy));
    }

    /** A current statement. */
    public static Statement asserted(String text, Set<String> evidence, Instant at) {
        return new Statement(text, evidence, at, null, Set.of());
    }

    /** @return whether no newer evidence has contradicted it */
    public boolean current() {
        return supersededAt == null;
    }

    /**
     * @param at a time
     * @return whether the page showed this statement at that time: asserted by then and not yet superseded
     */
    public boolean currentAt(Instant at) {
        return !assertedAt.isAfter(at) && (supersededAt == null || supersededAt.isAfter(at));
    }
}
