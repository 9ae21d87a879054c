package org.agentmemory.platform.json;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * Stores an {@link Instant} as a UTC {@link OffsetDateTime} ({@code TIMESTAMP WITH TIME ZONE}): JPA 3.1
 * knows {@code OffsetDateTime} but not {@code Instant}, and EclipseLink would otherwise serialize it.
 * Whatever the JVM's default zone, the stored and returned instant is the same.
 */
@Converter
public class UtcInstantConverter implements AttributeConverter<Instant, OffsetDateTime> {

    @Override
    public OffsetDateTime convertToDatabaseColumn(Instant attribute) {
        return attribute == null ? null : attribute.atOffset(ZoneOffset.UTC);
    }

    @Override
    public Instant convertToEntityAttribute(OffsetDateTime dbData) {
        return dbData == null ? null : dbData.toInstant();
    }
}
