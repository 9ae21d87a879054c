package org.agentmemory.platform.text;

import java.text.Normalizer;
import org.agentmemory.api.episodic.Episode;

/**
 * The one text form used for embedding, full-text indexing and queries: Unicode NFC. A composed
 * ({@code é}, U+00E9) and a decomposed ({@code e} + U+0301) spelling of the same text index and query
 * identically, so each finds the other. Nothing else changes: case, whitespace and punctuation are left
 * to the analyzer and the embedding model.
 */
public final class TextNormalization {

    private TextNormalization() {}

    /**
     * @param text any text, or {@code null}
     * @return the NFC form, or {@code null} for {@code null}
     */
    public static String nfc(String text) {
        if (text == null) {
            return null;
        }
        // Text made only of characters below U+0300 is NFC by construction (no combining marks): no check needed.
        boolean mayNeedComposition = false;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) >= 0x300) {
                mayNeedComposition = true;
                break;
            }
        }
        if (!mayNeedComposition || Normalizer.isNormalized(text, Normalizer.Form.NFC)) {
            return text;
        }
        return Normalizer.normalize(text, Normalizer.Form.NFC);
    }

    /**
     * @param episode the episode
     * @return the NFC form of {@link Episode#searchableText()}: what to embed and full-text index
     */
    public static String searchableText(Episode episode) {
        return nfc(episode.searchableText());
    }

    /**
     * @param query a recall query, or {@code null}
     * @return the NFC form without surrounding whitespace ({@code ""} for {@code null})
     */
    public static String query(String query) {
        return query == null ? "" : nfc(query).strip();
    }
}
