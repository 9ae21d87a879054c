package org.agentmemory.api.brain;

import java.io.Serializable;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Knowledge to write into a brain page (the seed's {@code wiki_remember}; the dream cycle's archive step).
 *
 * @param title      the title, or {@code null} for the body's first line (cut to 80 code points)
 * @param body       the knowledge: markdown lines or bullets, one statement each; required, at most 4,000 code points
 * @param category   {@code lesson}, {@code decision}, {@code concept} or {@code note}; {@code null} is {@code note}
 * @param confidence 0..1, or {@code null} for 0.5; below 0.3 the category becomes {@code note}
 * @param evidence   {@code episode:<id>} / {@code turn:<conversation>/<turn>} references, or {@code null}
 */
@Schema(description = "Knowledge to write into a brain page: merged into the page's statements, never replacing them.")
public record PageWrite(
        @Schema(description = "The title; absent for the body's first line (at most 80 code points).", nullable = true)
        String title,

        @Schema(description = "Markdown lines or bullets, one statement each; required, at most 4,000 code points.")
        String body,

        @Schema(description = "lesson, decision, concept or note (the default); a confidence below 0.3 makes it note.")
        String category,

        @Schema(description = "0 to 1; default 0.5.", nullable = true)
        Double confidence,

        @Schema(description = "References supporting it: episode:<id>, turn:<conversation>/<turn>.")
        List<String> evidence)
        implements Serializable {

    public PageWrite {
        evidence = evidence == null ? List.of() : List.copyOf(evidence);
    }
}
