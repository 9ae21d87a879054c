package org.agentmemory.platform.json;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Stores a JSON object ({@code Map<String, Object>}) as canonical JSON text; {@code null} is stored as
 * {@code {}}. Portable across JPA providers (no vendor JSON type).
 */
@Converter
public class JsonObjectConverter implements AttributeConverter<Map<String, Object>, String> {

    @Override
    public String convertToDatabaseColumn(Map<String, Object> attribute) {
        if (attribute == null || attribute.isEmpty()) {
            return "{}";
        }
        return CanonicalJson.write(attribute == null ? Map.of() : attribute);
    }

    @Override
    public Map<String, Object> convertToEntityAttribute(String dbData) {
        // Most rows hold an empty document; skip the parser for them (reads of long histories).
        if (dbData == null || dbData.isEmpty() || dbData.equals("{}")) {
            return new LinkedHashMap<>();
        }
        try {
            return CanonicalJson.parseObject(dbData);
        } catch (IOException e) {
            throw new IllegalStateException("Stored JSON object is not valid JSON: " + e.getMessage(), e);
        }
    }
}
