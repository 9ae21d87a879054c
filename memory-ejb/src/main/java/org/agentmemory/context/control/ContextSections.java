package org.agentmemory.context.control;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.agentmemory.api.context.ContextSectionProvider;
import org.agentmemory.api.context.SectionQuery;

/**
 * Fills one section of an assembled context from the plugged-in {@link ContextSectionProvider}s (spec §9.3).
 * Pure apart from the warning it logs for a failing provider.
 */
public final class ContextSections {

    private static final Logger LOG = Logger.getLogger(ContextSections.class.getName());

    private ContextSections() {}

    /**
     * A plugged-in provider with the name it is ordered and reported by.
     *
     * @param name     the bean class name
     * @param provider the provider
     */
    public record Plugged(String name, ContextSectionProvider provider) {}

    /**
     * @param plugged every plugged-in provider, of any section
     * @param query   the section and what it is asked for
     * @return the texts of the providers of {@code query.section()}, in ascending {@link ContextSectionProvider#order()}
     *         then name, non-empty ones joined by a blank line; {@code ""} when there is none. A provider that
     *         throws a runtime exception is logged at WARNING and contributes nothing.
     */
    public static String fill(List<Plugged> plugged, SectionQuery query) {
        List<Plugged> chosen = new ArrayList<>();
        for (Plugged p : plugged) {
            if (p.provider().section() == query.section()) {
                chosen.add(p);
            }
        }
        chosen.sort(Comparator.<Plugged>comparingInt(p -> p.provider().order()).thenComparing(Plugged::name));
        StringBuilder text = new StringBuilder();
        for (Plugged p : chosen) {
            String part;
            try {
                part = p.provider().provide(query);
            } catch (RuntimeException e) {
                LOG.log(
                        Level.WARNING,
                        "Context section provider " + p.name() + " failed for " + query.section()
                                + "; the section goes on without it (spec §9.3)",
                        e);
                part = null;
            }
            if (part != null && !part.isEmpty()) {
                if (text.length() > 0) {
                    text.append("\n\n");
                }
                text.append(part);
            }
        }
        return text.toString();
    }
}
