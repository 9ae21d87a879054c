package org.agentmemory.api.pii;

import java.io.Serializable;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One piece of personal data found in a message (issue 34 item 1, seed 002).
 *
 * @param label       what it is: {@code PERSON}, {@code EMAIL}, {@code PHONE}, {@code IBAN}, {@code CREDIT_CARD} or
 *                    any other label of 1–64 characters {@code A-Z}, {@code 0-9}, {@code _}, starting with a letter
 * @param value       the text found, never {@code null}
 * @param start       where it starts in its message, in code points from 0 (inclusive)
 * @param end         where it ends, in code points (exclusive); greater than {@code start}
 * @param confidence  the detector's confidence, 0–1
 * @param placeholder the thread's placeholder of the value, e.g. {@code <<PERSON_1>>}; assigned by the service (a
 *                    given one is ignored)
 */
@Schema(description = "One piece of personal data found in a message.")
public record Detection(
        @Schema(description = "What it is: PERSON, EMAIL, PHONE, IBAN, CREDIT_CARD or another label (A-Z, 0-9, _).")
        String label,

        @Schema(description = "The text found.") String value,

        @Schema(description = "Where it starts in its message, in code points from 0 (inclusive).")
        int start,

        @Schema(description = "Where it ends in its message, in code points (exclusive); greater than start.")
        int end,

        @Schema(description = "The detector's confidence, 0 to 1.")
        double confidence,

        @Schema(description = "The thread's placeholder of the value, e.g. <<PERSON_1>>; assigned by the service.")
        String placeholder)
        implements Serializable {

    /**
     * @param placeholder the placeholder to carry
     * @return this detection with that placeholder
     */
    public Detection withPlaceholder(String placeholder) {
        return new Detection(label, value, start, end, confidence, placeholder);
    }
}
