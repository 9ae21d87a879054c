package org.agentmemory.skills.boundary;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.agentmemory.api.config.SkillSettings;
import org.agentmemory.skills.control.CrossDomainRouting;
import org.eclipse.microprofile.config.Config;

/**
 * Skills' and the router's configuration ({@link SkillSettings}), read and checked once at deployment; a value out of
 * range stops the deployment with a message naming the key.
 */
@ApplicationScoped
public class SkillsConfig {

    @Inject
    Config config;

    private boolean autoExtract;
    private int extractMinEpisodes;
    private int extractEpisodes;
    private CrossDomainRouting.Limits routing;

    /** Reads (and so checks) the configuration when the application starts, not at the first call. */
    void atStart(
            @jakarta.enterprise.event.Observes @jakarta.enterprise.context.Initialized(ApplicationScoped.class)
                    Object started) {
        // the observer's bean instance is created for it, which runs the @PostConstruct check
    }

    @PostConstruct
    void read() {
        autoExtract = config.getOptionalValue(SkillSettings.AUTO_EXTRACT, Boolean.class)
                .orElse(SkillSettings.Defaults.AUTO_EXTRACT);
        extractMinEpisodes =
                range(SkillSettings.EXTRACT_MIN_EPISODES, SkillSettings.Defaults.EXTRACT_MIN_EPISODES, 2, 1_000);
        extractEpisodes = range(SkillSettings.EXTRACT_EPISODES, SkillSettings.Defaults.EXTRACT_EPISODES, 1, 100_000);
        routing = new CrossDomainRouting.Limits(
                share(SkillSettings.ROUTER_SIMILARITY_THRESHOLD, SkillSettings.Defaults.ROUTER_SIMILARITY_THRESHOLD),
                share(SkillSettings.ROUTER_CROSS_DOMAIN_DECAY, SkillSettings.Defaults.ROUTER_CROSS_DOMAIN_DECAY),
                range(
                        SkillSettings.ROUTER_MAX_RELEVANT_AGENTS,
                        SkillSettings.Defaults.ROUTER_MAX_RELEVANT_AGENTS,
                        0,
                        100),
                range(
                        SkillSettings.ROUTER_WARNINGS_PER_AGENT,
                        SkillSettings.Defaults.ROUTER_WARNINGS_PER_AGENT,
                        1,
                        100));
    }

    private int range(String key, int fallback, int min, int max) {
        int value = config.getOptionalValue(key, Integer.class).orElse(fallback);
        if (value < min || value > max) {
            throw new IllegalStateException(
                    key + " is " + value + "; it must be between " + min + " and " + max + ". Default: " + fallback);
        }
        return value;
    }

    private double share(String key, double fallback) {
        double value = config.getOptionalValue(key, Double.class).orElse(fallback);
        if (!(value >= 0 && value <= 1)) {
            throw new IllegalStateException(
                    key + " is " + value + "; it must be between 0 and 1. Default: " + fallback);
        }
        return value;
    }

    /** @return whether extraction runs for an agent whose registration does not say ({@value SkillSettings#AUTO_EXTRACT}) */
    public boolean autoExtract() {
        return autoExtract;
    }

    /** @return the least cluster size that makes a skill */
    public int extractMinEpisodes() {
        return extractMinEpisodes;
    }

    /** @return most successful episodes an extraction reads */
    public int extractEpisodes() {
        return extractEpisodes;
    }

    /** @return the router's settings */
    public CrossDomainRouting.Limits routing() {
        return routing;
    }
}
