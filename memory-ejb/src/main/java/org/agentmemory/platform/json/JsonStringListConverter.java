package org.agentmemory.platform.json;

import com.fasterxml.jackson.core.type.TypeReference;
import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Stores a list of strings as a JSON array; {@code null} is stored as {@code []}. */
@Converter
public class JsonStringListConverter implements AttributeConverter<List<String>, String> {

    private static final TypeReference<List<String>> TYPE = new TypeReference<>() {};

    @Override
    public String convertToDatabaseColumn(List<String> attribute) {
        if (attribute == null || attribute.isEmpty()) {
            return "[]";
        }
        return CanonicalJson.write(attribute == null ? List.of() : attribute);
    }

    @Override
    public List<String> convertToEntityAttribute(String dbData) {
        // Most rows hold an empty document; skip the parser for them (reads of long histories).
        if (dbData == null || dbData.isEmpty() || dbData.equals("[]")) {
            return new ArrayList<>();
        }
        try {
            return CanonicalJson.mapper().readValue(dbData, TYPE);
        } catch (IOException e) {
            throw new IllegalStateException("Stored JSON array is not valid: " + e.getMessage(), e);
        }
    }
}
