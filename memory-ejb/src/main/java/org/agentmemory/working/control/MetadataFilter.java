package org.agentmemory.working.control;

import java.math.BigDecimal;
import java.util.Map;

/**
 * Filter-based retrieval's metadata match (seed 003 {@code retrieve(filters=…)}): an item matches when its metadata
 * holds every key of the filter with an equal value. Values are JSON scalars: strings and booleans compare exactly,
 * numbers by value ({@code 1}, {@code 1.0} and {@code 1e0} are equal).
 */
public final class MetadataFilter {

    private MetadataFilter() {}

    /**
     * @param metadata an item's metadata, or {@code null} (no keys)
     * @param filter   key → value, or {@code null} or empty (matches everything)
     * @return whether every key of the filter is in the metadata with an equal value
     */
    public static boolean matches(Map<String, Object> metadata, Map<String, Object> filter) {
        if (filter == null || filter.isEmpty()) {
            return true;
        }
        if (metadata == null) {
            return false;
        }
        for (Map.Entry<String, Object> criterion : filter.entrySet()) {
            if (!metadata.containsKey(criterion.getKey())
                    || !equal(metadata.get(criterion.getKey()), criterion.getValue())) {
                return false;
            }
        }
        return true;
    }

    /**
     * @param value a filter value
     * @return whether it is a JSON scalar a filter may hold: a string, a number or a boolean
     */
    public static boolean isScalar(Object value) {
        return value instanceof String || value instanceof Number || value instanceof Boolean;
    }

    private static boolean equal(Object stored, Object wanted) {
        if (stored instanceof Number a && wanted instanceof Number b) {
            BigDecimal x = decimal(a);
            BigDecimal y = decimal(b);
            return x != null && y != null && x.compareTo(y) == 0;
        }
        return stored != null && stored.equals(wanted);
    }

    /** @return the number's exact value, or {@code null} for a non-finite double (never equal to anything) */
    private static BigDecimal decimal(Number n) {
        if (n instanceof BigDecimal d) {
            return d;
        }
        if (n instanceof Double || n instanceof Float) {
            double d = n.doubleValue();
            return Double.isFinite(d) ? BigDecimal.valueOf(d) : null;
        }
        return new BigDecimal(n.toString());
    }
}
