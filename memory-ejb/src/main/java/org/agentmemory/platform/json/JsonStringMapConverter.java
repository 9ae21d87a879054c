package org.agentmemory.platform.json;

import com.fasterxml.jackson.core.type.TypeReference;
import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/** Stores a string-to-string map as a JSON object; {@code null} is stored as {@code {}}. */
@Converter
public class JsonStringMapConverter implements AttributeConverter<Map<String, String>, String> {

    private static final TypeReference<LinkedHashMap<String, String>> TYPE = new TypeReference<>() {};

    @Override
    public String convertToDatabaseColumn(Map<String, String> attribute) {
        if (attribute == null || attribute.isEmpty()) {
            return "{}";
        }
        return CanonicalJson.write(attribute == null ? Map.of() : attribute);
    }

    @Override
    public Map<String, String> convertToEntityAttribute(String dbData) {
        // Most rows hold an empty document; skip the parser for them (reads of long histories).
        if (dbData == null || dbData.isEmpty() || dbData.equals("{}")) {
            return new LinkedHashMap<>();
        }
        try {
            return CanonicalJson.mapper().readValue(dbData, TYPE);
        } catch (IOException e) {
            throw new IllegalStateException("Stored JSON object is not valid: " + e.getMessage(), e);
        }
    }
}
