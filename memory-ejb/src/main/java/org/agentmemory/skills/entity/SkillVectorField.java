package org.agentmemory.skills.entity;

import org.agentmemory.platform.search.VectorFields;
import org.hibernate.search.mapper.orm.mapping.HibernateOrmMappingConfigurationContext;
import org.hibernate.search.mapper.orm.mapping.HibernateOrmSearchMappingConfigurer;

/**
 * Registers the {@code embedding} vector field of {@link Skill} ({@link VectorFields#map}); listed in
 * {@code hibernate.search.mapping.configurer} ({@code persistence.xml}).
 */
public class SkillVectorField implements HibernateOrmSearchMappingConfigurer {

    @Override
    public void configure(HibernateOrmMappingConfigurationContext context) {
        VectorFields.map(context, Skill.class);
    }
}
