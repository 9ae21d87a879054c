package org.agentmemory.platform.search;

import org.hibernate.search.backend.lucene.analysis.LuceneAnalysisConfigurationContext;
import org.hibernate.search.backend.lucene.analysis.LuceneAnalysisConfigurer;

/**
 * Registers the analyzer named {@value #ENGLISH} for the Lucene backend (Lucene has no built-in analyzer of
 * that name; OpenSearch and Elasticsearch do). Chain: standard tokenizer, English possessive removal
 * ({@code John's} → {@code John}), lower case, ASCII folding ({@code café} → {@code cafe}), English stop
 * words, Porter stemming. Referenced from {@code persistence.xml}
 * ({@code hibernate.search.backend.analysis.configurer}).
 */
public class EnglishAnalysisConfigurer implements LuceneAnalysisConfigurer {

    /** The analyzer name used by the mapping of full-text fields. */
    public static final String ENGLISH = "english";

    @Override
    public void configure(LuceneAnalysisConfigurationContext context) {
        context.analyzer(ENGLISH)
                .custom()
                .tokenizer("standard")
                .tokenFilter("englishPossessive")
                .tokenFilter("lowercase")
                .tokenFilter("asciiFolding")
                .tokenFilter("stop")
                .tokenFilter("porterStem");
    }
}
