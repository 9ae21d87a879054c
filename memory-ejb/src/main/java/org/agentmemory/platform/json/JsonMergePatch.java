package org.agentmemory.platform.json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON Merge Patch (RFC 7396) over plain Java JSON values: objects merge recursively, a {@code null} member
 * removes the key, anything else replaces. Inputs are never mutated.
 */
public final class JsonMergePatch {

    private JsonMergePatch() {}

    /**
     * @param target the current object (may be {@code null}: treated as {@code {}})
     * @param patch  the patch object; never {@code null}
     * @return a new object: {@code target} with {@code patch} applied
     */
    public static Map<String, Object> apply(Map<String, ?> target, Map<String, ?> patch) {
        Map<String, Object> result = target == null ? new LinkedHashMap<>() : copy(target);
        for (Map.Entry<String, ?> member : patch.entrySet()) {
            Object value = member.getValue();
            if (value == null) {
                result.remove(member.getKey());
            } else if (value instanceof Map<?, ?> patchObject) {
                Object current = result.get(member.getKey());
                result.put(member.getKey(), apply(current instanceof Map<?, ?> m ? cast(m) : null, cast(patchObject)));
            } else {
                result.put(member.getKey(), copyValue(value));
            }
        }
        return result;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, ?> cast(Map<?, ?> map) {
        return (Map<String, ?>) map;
    }

    private static Map<String, Object> copy(Map<String, ?> map) {
        Map<String, Object> out = new LinkedHashMap<>();
        map.forEach((k, v) -> out.put(k, copyValue(v)));
        return out;
    }

    private static Object copyValue(Object value) {
        if (value instanceof Map<?, ?> map) {
            return copy(cast(map));
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            list.forEach(v -> out.add(copyValue(v)));
            return out;
        }
        return value;
    }
}
