package org.agentmemory.rest;

import org.agentmemory.api.InvalidInputException;

/**
 * Query and header parameters parsed by the resources themselves, so that a malformed value is a 400 naming
 * the parameter (JAX-RS would answer 404 for an unconvertible query parameter).
 */
public final class Params {

    private Params() {}

    /**
     * @param name         the parameter name
     * @param value        the raw value or {@code null}
     * @param defaultValue used when absent
     * @param min          smallest accepted value
     * @param max          largest accepted value
     * @return the value
     * @throws InvalidInputException when not an integer in range
     */
    public static int intParam(String name, String value, int defaultValue, int min, int max)
            throws InvalidInputException {
        long parsed = longParam(name, value, defaultValue, min, max);
        return (int) parsed;
    }

    /**
     * The sequence a turn listing starts after: from {@code after} (a sequence) or from {@code cursor} (the
     * {@code nextCursor} of the previous slice, {@link org.agentmemory.api.conversation.TurnPage#cursorAfter}).
     *
     * @param after  the {@code after} parameter, or {@code null}
     * @param cursor the {@code cursor} parameter, or {@code null}
     * @return the sequence, 0 when neither is given
     * @throws InvalidInputException when both are given, {@code after} is not a whole number of at least 0, or
     *                               {@code cursor} is not a cursor of a turn listing
     */
    public static long turnPosition(String after, String cursor) throws InvalidInputException {
        if (cursor == null) {
            return longParam("after", after, 0, 0, Long.MAX_VALUE);
        }
        if (after != null) {
            throw new InvalidInputException(
                    "cursor", "exclusive", "Give after or cursor, not both: cursor already names the position.");
        }
        try {
            return org.agentmemory.api.conversation.TurnPage.sequenceOf(cursor);
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException(
                    "cursor",
                    "cursor-format",
                    "cursor is not a cursor of this listing; pass the nextCursor of the previous slice, or none for"
                            + " the first slice.");
        }
    }

    /** As {@link #intParam} for longs. */
    public static long longParam(String name, String value, long defaultValue, long min, long max)
            throws InvalidInputException {
        if (value == null) {
            return defaultValue;
        }
        long parsed;
        try {
            parsed = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new InvalidInputException(
                    name,
                    "integer",
                    name + " is '" + value + "'; it must be an integer between " + min + " and " + max + ".");
        }
        if (parsed < min || parsed > max) {
            throw new InvalidInputException(
                    name,
                    "range",
                    name + " is " + parsed + "; it must be between " + min + " and " + max
                            + (min == 1 ? " (a page size; 0 and negative values never mean 'everything')." : "."));
        }
        return parsed;
    }

    /**
     * @param name  the parameter name
     * @param value the raw value
     * @return the value
     * @throws InvalidInputException when absent
     */
    public static String required(String name, String value) throws InvalidInputException {
        if (value == null) {
            throw new InvalidInputException(name, "required", "The query parameter " + name + " is required.");
        }
        return value;
    }
    /**
     * @param version a version
     * @return its strong ETag, e.g. {@code "7"}
     */
    public static jakarta.ws.rs.core.EntityTag etag(long version) {
        return new jakarta.ws.rs.core.EntityTag(Long.toString(version));
    }

    /**
     * @param ifMatch an {@code If-Match} header, or {@code null}
     * @return the version it names, or -1 for none or {@code *}
     * @throws InvalidInputException when it is not an ETag of this API (field {@code If-Match}, rule {@code etag})
     */
    public static long ifMatchVersion(String ifMatch) throws InvalidInputException {
        if (ifMatch == null || ifMatch.isBlank() || ifMatch.trim().equals("*")) {
            return -1;
        }
        String value = ifMatch.trim();
        if (value.startsWith("W/")) {
            value = value.substring(2);
        }
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
            value = value.substring(1, value.length() - 1);
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new InvalidInputException(
                    "If-Match", "etag", "If-Match is '" + ifMatch + "'; send the ETag of a previous GET, e.g. \"7\".");
        }
    }
}
