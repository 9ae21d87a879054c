package org.agentmemory.api.context;

/**
 * A plug point of context assembly (spec §9.3): a component that fills one {@link ContextSection} of the
 * assembled context, e.g. episodic memory's failure warnings or the brain's knowledge.
 *
 * <p>Implement it as a CDI bean with a bean-defining scope ({@code @ApplicationScoped}) in the memory
 * service's application; the assembler discovers every provider with {@code @Any Instance<ContextSectionProvider>}
 * and asks those whose {@link #section()} is being filled, in ascending {@link #order()} (then class name),
 * joining their non-empty texts with a blank line. With no provider for a section, the section is empty.
 *
 * <p>Providers must be thread-safe. A provider that throws a runtime exception is logged at WARNING and
 * contributes nothing (spec §9.3: every branch degrades to an empty section); it never fails the assembly.
 */
public interface ContextSectionProvider {

    /** @return the section this provider fills; never {@code null} */
    ContextSection section();

    /**
     * @return where this provider's text goes among the section's providers, ascending; 0 by default
     */
    default int order() {
        return 0;
    }

    /**
     * @param query what is asked for; never {@code null}
     * @return the section text (plain text, may span lines), or {@code ""} / {@code null} for nothing
     */
    String provide(SectionQuery query);
}
