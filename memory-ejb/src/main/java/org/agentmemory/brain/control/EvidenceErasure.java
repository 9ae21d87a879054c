package org.agentmemory.brain.control;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Removes an erased subject's evidence from a page's statements (issue 34 item 4): the subject's references leave
 * every statement's evidence and supersession; a statement whose only evidence was the subject's is removed with it
 * (its words came from the subject); a statement with other evidence stays, supported by the rest. Statements that
 * never had evidence (direct writes without references) are not the subject's and stay.
 */
public final class EvidenceErasure {

    private EvidenceErasure() {}

    /**
     * @param kept       the statements left, in their order
     * @param removed    how many statements were removed
     * @param changed    whether any reference or statement was removed
     */
    public record Result(List<Statement> kept, int removed, boolean changed) {}

    /**
     * @param statements a page's statements
     * @param subjects   whether a reference ({@code episode:<id>}, {@code turn:<conversation>/<turn>}) is the
     *                   subject's
     * @return the statements without the subject's evidence
     */
    public static Result erase(List<Statement> statements, Predicate<String> subjects) {
        List<Statement> kept = new ArrayList<>(statements.size());
        int removed = 0;
        boolean changed = false;
        for (Statement s : statements) {
            Set<String> evidence = without(s.evidence(), subjects);
            Set<String> supersededBy = without(s.supersededBy(), subjects);
            boolean touched = evidence.size() != s.evidence().size()
                    || supersededBy.size() != s.supersededBy().size();
            changed |= touched;
            if (evidence.isEmpty() && !s.evidence().isEmpty()) {
                removed++;
            } else if (touched) {
                kept.add(new Statement(s.text(), evidence, s.assertedAt(), s.supersededAt(), supersededBy));
            } else {
                kept.add(s);
            }
        }
        return new Result(List.copyOf(kept), removed, changed);
    }

    /**
     * @param conversationIds the subject's conversation ids, as text
     * @param episodeIds      the subject's episode ids
     * @return whether a reference is the subject's: one of its episodes, or a turn of one of its conversations
     */
    public static Predicate<String> references(Set<String> conversationIds, Set<String> episodeIds) {
        return ref -> {
            if (ref.startsWith("episode:")) {
                return episodeIds.contains(ref.substring("episode:".length()));
            }
            if (ref.startsWith("turn:")) {
                int slash = ref.indexOf('/', "turn:".length());
                return slash > 0 && conversationIds.contains(ref.substring("turn:".length(), slash));
            }
            return false;
        };
    }

    private static Set<String> without(Set<String> refs, Predicate<String> subjects) {
        Set<String> left = new LinkedHashSet<>(refs.size());
        for (String ref : refs) {
            if (!subjects.test(ref)) {
                left.add(ref);
            }
        }
        return left;
    }
}
