package org.agentmemory.pii.control;

import java.util.List;
import java.util.regex.Pattern;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.pii.Detection;

/**
 * The rules a caller's detections follow (issue 34 item 1): at most {@value #MAX_DETECTIONS}; a label of 1–64
 * characters {@code A-Z 0-9 _} starting with a letter; a value of 1–{@value #MAX_VALUE_CODE_POINTS} code points without
 * NUL; {@code 0 ≤ start < end}; a confidence from 0 to 1. Against a text, {@code end} is within it and the value equals
 * the text between the offsets. Problems name the field, e.g. {@code detections[2].end}. Pure.
 */
public final class DetectionRules {

    /** Most detections per message. */
    public static final int MAX_DETECTIONS = 1_000;

    /** Longest value. */
    public static final int MAX_VALUE_CODE_POINTS = 4_096;

    private static final Pattern LABEL = Pattern.compile("[A-Z][A-Z0-9_]{0,63}");

    private DetectionRules() {}

    /**
     * @param field      the request field of the list, e.g. {@code detections}
     * @param detections the detections; {@code null} is refused
     * @param text       the text they were found in, or {@code null} when not given
     * @throws InvalidInputException naming the first broken rule
     */
    public static void check(String field, List<Detection> detections, String text) throws InvalidInputException {
        if (detections == null) {
            throw new InvalidInputException(field, "required", field + " is required (an empty list when none).");
        }
        if (detections.size() > MAX_DETECTIONS) {
            throw new InvalidInputException(
                    field,
                    "max-items",
                    field + " has " + detections.size() + " items; at most " + MAX_DETECTIONS + ".");
        }
        int length = text == null ? Integer.MAX_VALUE : text.codePointCount(0, text.length());
        for (int i = 0; i < detections.size(); i++) {
            String at = field + "[" + i + "]";
            Detection d = detections.get(i);
            if (d == null) {
                throw new InvalidInputException(at, "required", at + " is null; give a detection object.");
            }
            if (d.label() == null || !LABEL.matcher(d.label()).matches()) {
                throw new InvalidInputException(
                        at + ".label",
                        "label",
                        at + ".label is '" + d.label()
                                + "'; a label is 1 to 64 characters A-Z, 0-9 or _ starting with a letter, e.g. PERSON.");
            }
            if (d.value() == null || d.value().isEmpty()) {
                throw new InvalidInputException(at + ".value", "not-empty", at + ".value is required and not empty.");
            }
            int valueLength = d.value().codePointCount(0, d.value().length());
            if (valueLength > MAX_VALUE_CODE_POINTS || d.value().indexOf('\0') >= 0) {
                throw new InvalidInputException(
                        at + ".value",
                        "value",
                        at + ".value has " + valueLength + " code points or a NUL; it must have 1 to "
                                + MAX_VALUE_CODE_POINTS + " and no NUL.");
            }
            if (d.start() < 0 || d.end() <= d.start()) {
                throw new InvalidInputException(
                        at + ".end",
                        "range",
                        at + " spans " + d.start() + " to " + d.end()
                                + "; offsets are code points with 0 ≤ start < end.");
            }
            if (!(d.confidence() >= 0 && d.confidence() <= 1)) {
                throw new InvalidInputException(
                        at + ".confidence",
                        "range",
                        at + ".confidence is " + d.confidence() + "; it must be from 0 to 1.");
            }
            if (text != null) {
                if (d.end() > length) {
                    throw new InvalidInputException(
                            at + ".end",
                            "within-text",
                            at + ".end is " + d.end() + " but the text has " + length + " code points.");
                }
                int from = text.offsetByCodePoints(0, d.start());
                String span = text.substring(from, text.offsetByCodePoints(from, d.end() - d.start()));
                if (!span.equals(d.value())) {
                    throw new InvalidInputException(
                            at + ".value",
                            "matches-text",
                            at
                                    + ".value differs from the text between start and end (code points " + d.start()
                                    + " to "
                                    + d.end() + "); give the offsets of the value in the text.");
                }
            }
        }
    }
}
