package org.agentmemory.episodic.boundary;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.agentmemory.api.InvalidInputException;
import org.agentmemory.api.NotFoundException;
import org.agentmemory.api.RequiresRole;
import org.agentmemory.api.conversation.Page;
import org.agentmemory.api.episodic.Episode;
import org.agentmemory.api.episodic.EpisodeCategory;
import org.agentmemory.api.episodic.EpisodeInput;
import org.agentmemory.api.episodic.EpisodeSearchResult;
import org.agentmemory.api.episodic.EpisodicMemory;
import org.agentmemory.api.episodic.EpisodicMemoryOperations;
import org.agentmemory.api.episodic.EpisodicMemoryRemote;
import org.agentmemory.api.episodic.MemoryNamespace;
import org.agentmemory.api.episodic.RecallMode;
import org.agentmemory.api.episodic.RecallRequest;
import org.agentmemory.episodic.control.EpisodeAssembler;
import org.agentmemory.episodic.control.EpisodeInputs;
import org.agentmemory.episodic.control.EpisodeMapper;
import org.agentmemory.episodic.control.EpisodeRecall;
import org.agentmemory.episodic.control.EpisodeRules;
import org.agentmemory.episodic.control.EpisodeStore;
import org.agentmemory.episodic.control.FailureWarnings;
import org.agentmemory.episodic.control.ReflectionOutcome;
import org.agentmemory.episodic.control.ReflectionService;
import org.agentmemory.episodic.control.ToolTexts;
import org.agentmemory.platform.config.Settings;
import org.agentmemory.platform.embedding.EmbeddingModel;
import org.agentmemory.platform.paging.Cursors;
import org.agentmemory.platform.security.CallerScope;
import org.agentmemory.platform.text.TextNormalization;
import org.agentmemory.platform.validation.InputRules;

/**
 * Episodic memory (spec §10): the session bean behind the local and remote views.
 *
 * <p>Recording runs without a transaction of its own ({@code NOT_SUPPORTED}): the input is checked and put in
 * NFC, reflected on ({@link ReflectionService}: a model call guarded by Fault Tolerance, or the heuristic),
 * assembled (spec §10.3 order), embedded in one batch, and only then stored by {@link EpisodeWriterBean} in a
 * short transaction. Content already stored in the namespace is not reflected on or embedded again.
 *
 * <p>Recall embeds the query, runs the vector and full-text legs over the search index with the namespace
 * filter inside each leg, fuses them in hybrid mode ({@code memory.recall.fusion}, reciprocal rank fusion by
 * default; on OpenSearch with neural-search one engine {@code hybrid} query, issue 36 item 4), loads the winners
 * from the database and checks namespace, expiry and failure once more there, so a stale index can never leak
 * another namespace's episode.
 */
@jakarta.annotation.security.DeclareRoles({
    RequiresRole.READER,
    RequiresRole.WRITER,
    RequiresRole.ADMIN,
    RequiresRole.OPERATOR
})
@jakarta.annotation.security.PermitAll // CallerScope checks each operation's role; REST has checked its own
@Stateless
@jakarta.interceptor.Interceptors({CallerScope.class, org.agentmemory.platform.load.ForegroundRequests.class})
public class EpisodicMemoryBean implements EpisodicMemory, EpisodicMemoryRemote {

    private static final Logger LOG = Logger.getLogger(EpisodicMemoryBean.class.getName());

    @PersistenceContext(unitName = "memory")
    EntityManager em;

    @jakarta.annotation.Resource
    jakarta.enterprise.concurrent.ManagedExecutorService executor;

    @EJB
    EpisodeWriterBean writer;

    @EJB
    EpisodeEraserBean eraser;

    @Inject
    Settings settings;

    @Inject
    ReflectionService reflection;

    /** Whether hybrid recall runs on the engine (issue 36 item 4); {@code null} (outside a container): client-side. */
    @EJB
    org.agentmemory.platform.search.EngineHybridBean engineHybrid;

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }

    private EpisodeStore store() {
        return new EpisodeStore(em);
    }

    // ------------------------------------------------------------------------------------------ recording

    @Override
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public Episode recordEpisode(EpisodeInput input) throws InvalidInputException {
        return record(List.of(EpisodeRules.normalized("", input))).get(0);
    }

    @Override
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public List<Episode> recordEpisodes(List<EpisodeInput> inputs) throws InvalidInputException {
        if (inputs == null || inputs.isEmpty()) {
            throw new InvalidInputException("inputs", "not-empty", "inputs must contain at least one episode.");
        }
        if (inputs.size() > MAX_BATCH) {
            throw new InvalidInputException(
                    "inputs",
                    "max-items",
                    "inputs has " + inputs.size() + " episodes; the limit is " + MAX_BATCH + " per call. Split it.");
        }
        List<EpisodeInput> normalized = new ArrayList<>(inputs.size());
        for (int i = 0; i < inputs.size(); i++) {
            normalized.add(EpisodeRules.normalized("inputs[" + i + "].", inputs.get(i)));
        }
        return record(normalized);
    }

    @Override
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public Episode recordToolEpisode(
            MemoryNamespace namespace,
            String toolName,
            Map<String, Object> toolArgs,
            Map<String, Object> toolResult,
            String userQuery)
            throws InvalidInputException {
        EpisodeRules.checkNamespace("", namespace);
        InputRules.checkText("toolName", toolName, InputRules.Controls.NONE);
        if (toolName == null || toolName.isBlank()) {
            throw new InvalidInputException("toolName", "required", "toolName is required: the tool's name.");
        }
        InputRules.checkJsonObject("toolArgs", toolArgs);
        InputRules.checkJsonObject("toolResult", toolResult);
        return recordEpisode(EpisodeInputs.toolEpisode(namespace, toolName, toolArgs, toolResult, userQuery));
    }

    @Override
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public List<Episode> recordCrewEpisode(
            MemoryNamespace namespace, Map<String, Object> crewResult, String description, boolean perAgent)
            throws InvalidInputException {
        EpisodeRules.checkNamespace("", namespace);
        if (description == null || description.isBlank()) {
            throw new InvalidInputException("description", "required", "description is required: the crew flow.");
        }
        InputRules.checkJsonObject("crewResult", crewResult);
        List<EpisodeInput> inputs;
        try {
            inputs = EpisodeInputs.crewEpisodes(namespace, crewResult, description, perAgent);
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("crewResult.agent_results", "invalid", e.getMessage());
        }
        return recordEpisodes(inputs);
    }

    @Override
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public Episode recordLesson(
            MemoryNamespace namespace, String situation, String lesson, EpisodeCategory category, Integer importance)
            throws InvalidInputException {
        EpisodeRules.checkNamespace("", namespace);
        if (situation == null || situation.isBlank()) {
            throw new InvalidInputException(
                    "situation", "required", "situation is required: when does the lesson apply?");
        }
        if (lesson == null || lesson.isBlank()) {
            throw new InvalidInputException("lesson", "required", "lesson is required: what was learned?");
        }
        return recordEpisode(EpisodeInputs.lesson(
                namespace,
                situation,
                lesson,
                category == null ? EpisodeCategory.DECISION : category,
                importance == null ? 5 : importance));
    }

    @Override
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public Episode recordInteraction(MemoryNamespace namespace, String query, String response)
            throws InvalidInputException {
        EpisodeRules.checkNamespace("", namespace);
        InputRules.checkText("query", query, InputRules.Controls.NO_NUL);
        InputRules.checkText("response", response, InputRules.Controls.NO_NUL);
        Optional<EpisodeInput> input = EpisodeInputs.interaction(namespace, query, response);
        return input.isPresent() ? recordEpisode(input.get()) : null;
    }

    /** Reflection and embedding outside any transaction, then one short write. */
    private List<Episode> record(List<EpisodeInput> inputs) {
        Instant now = now();
        EmbeddingModel model = settings.embeddingModel();
        List<String> keys = new ArrayList<>(inputs.size());
        List<Episode> episodes = new ArrayList<>(inputs.size());
        List<String> texts = new ArrayList<>();
        List<Integer> toEmbed = new ArrayList<>();
        EpisodeStore reader = store();
        // Which contents are stored already: one query per tenant for the whole batch.
        List<String> tenants = new ArrayList<>(inputs.size());
        for (EpisodeInput input : inputs) {
            keys.add(EpisodeRules.contentKey(input));
            tenants.add(input.namespace().tenantId());
        }
        Map<String, org.agentmemory.episodic.entity.Episode> stored = reader.findStored(tenants, keys);
        for (int n = 0; n < inputs.size(); n++) {
            EpisodeInput input = inputs.get(n);
            String key = keys.get(n);
            org.agentmemory.episodic.entity.Episode existing = stored.get(EpisodeStore.storedKey(tenants.get(n), key));
            if (existing != null) {
                episodes.add(EpisodeMapper.toRecord(existing));
                continue;
            }
            ReflectionOutcome reflected = EpisodeAssembler.needsReflection(input) ? reflection.reflect(input) : null;
            Episode episode = EpisodeAssembler.assemble(
                    input, reflected, null, UUID.randomUUID().toString(), now, settings.episodicDefaultTtlDays());
            episodes.add(episode);
            toEmbed.add(episodes.size() - 1);
            texts.add(TextNormalization.searchableText(episode));
        }
        List<float[]> vectors = embed(model, texts);
        List<EpisodeWriterBean.Pending> pending = new ArrayList<>(inputs.size());
        int next = 0;
        for (int i = 0; i < episodes.size(); i++) {
            float[] vector = next < toEmbed.size() && toEmbed.get(next) == i ? vectors.get(next++) : null;
            pending.add(new EpisodeWriterBean.Pending(episodes.get(i), keys.get(i), vector, model.name()));
        }
        return EpisodeWriterBean.storeThrough(writer, pending);
    }

    /** Spec §10.3 step 7: embedding errors are logged and the episode is stored without a vector. */
    private static List<float[]> embed(EmbeddingModel model, List<String> texts) {
        if (texts.isEmpty()) {
            return List.of();
        }
        try {
            return model.embedAll(texts);
        } catch (RuntimeException | LinkageError e) {
            LOG.log(
                    Level.WARNING,
                    "Embedding " + texts.size() + " episodes with " + model.name()
                            + " failed; they are stored without vectors (full-text recall still finds them)",
                    e);
            List<float[]> none = new ArrayList<>(texts.size());
            texts.forEach(t -> none.add(null));
            return none;
        }
    }

    // -------------------------------------------------------------------------------------------- recall

    @Override
    @jakarta.interceptor.Interceptors(org.agentmemory.platform.search.SearchEngineGuard.class)
    public List<EpisodeSearchResult> recallSimilar(RecallRequest request) throws InvalidInputException {
        if (request == null) {
            throw new InvalidInputException("request", "required", "The recall request is required.");
        }
        EpisodeRules.checkNamespace("", request.namespace());
        InputRules.checkText("query", request.query(), InputRules.Controls.NO_NUL);
        if (request.query() == null || request.query().isBlank()) {
            throw new InvalidInputException("query", "required", "query is required: the text to recall by.");
        }
        int topK = request.effectiveTopK();
        if (topK < 1 || topK > RecallRequest.MAX_TOP_K) {
            throw new InvalidInputException(
                    "topK", "range", "topK is " + topK + "; it must be between 1 and " + RecallRequest.MAX_TOP_K + ".");
        }
        double threshold = EpisodeRules.scoreThreshold(request.scoreThreshold(), settings.embeddingModel());
        return recall(
                request.namespace(),
                TextNormalization.query(request.query()),
                topK,
                threshold,
                request.category(),
                request.failuresOnly(),
                request.effectiveMode());
    }

    private List<EpisodeSearchResult> recall(
            MemoryNamespace namespace,
            String query,
            int topK,
            double threshold,
            EpisodeCategory category,
            boolean failuresOnly,
            RecallMode mode) {
        return new EpisodeRecall(
                        store(),
                        settings.embeddingModel(),
                        settings.recallFusion(),
                        settings.recallCandidates(),
                        executor,
                        engineHybrid == null ? null : engineHybrid.pipeline(),
                        e -> engineHybrid.engineFailed(e))
                .search(namespace, query, topK, threshold, category, failuresOnly, mode, now());
    }

    // ------------------------------------------------------------------------------- warnings and context

    @Override
    public String failureWarnings(MemoryNamespace namespace, String query, int maxWarnings)
            throws InvalidInputException {
        EpisodeRules.checkNamespace("", namespace);
        checkLimit("maxWarnings", maxWarnings);
        InputRules.checkText("query", query, InputRules.Controls.NO_NUL);
        List<Episode> semantic = new ArrayList<>();
        String q = TextNormalization.query(query);
        if (!q.isEmpty()) {
            for (EpisodeSearchResult r : recall(
                    namespace,
                    q,
                    Math.min(maxWarnings, RecallRequest.MAX_TOP_K),
                    settings.embeddingModel().defaultScoreThreshold(),
                    null,
                    true,
                    RecallMode.VECTOR)) {
                semantic.add(r.episode());
            }
        }
        // Spec §13 #6 fixed: recent failures of this user when the namespace names one, else of the agent.
        MemoryNamespace scope =
                new MemoryNamespace(namespace.tenantId(), namespace.agentId(), namespace.userId(), null, null, null);
        List<Episode> recent = EpisodeStore.records(store().recent(scope, true, null, now(), maxWarnings));
        return FailureWarnings.format(semantic, recent, maxWarnings);
    }

    @Override
    public List<Episode> userPreferences(MemoryNamespace namespace, int limit) throws InvalidInputException {
        EpisodeRules.checkNamespace("", namespace);
        checkLimit("limit", limit);
        return EpisodeStore.records(
                store().recent(namespace, false, EpisodeCategory.USER_PREFERENCE.value(), now(), limit));
    }

    @Override
    public List<Episode> roomContext(MemoryNamespace namespace, int limit, List<EpisodeCategory> categories)
            throws InvalidInputException {
        EpisodeRules.checkNamespace("", namespace);
        checkLimit("limit", limit);
        boolean filter = categories != null && !categories.isEmpty();
        List<Episode> recent =
                EpisodeStore.records(store().recent(namespace, false, null, now(), filter ? limit * 2 : limit));
        List<Episode> out = new ArrayList<>();
        for (Episode e : recent) {
            if (!filter || categories.contains(e.category())) {
                out.add(e);
            }
            if (out.size() == limit) {
                break;
            }
        }
        return out;
    }

    @Override
    public String preAskContext(MemoryNamespace namespace, String query, int maxWarnings) throws InvalidInputException {
        String warnings = failureWarnings(namespace, query, maxWarnings);
        String preferences = namespace.userId() == null
                ? ""
                : FailureWarnings.userPreferences(userPreferences(namespace, FailureWarnings.MAX_BLOCK_LINES));
        String room = namespace.roomId() == null
                ? ""
                : FailureWarnings.roomContext(roomContext(namespace, FailureWarnings.MAX_BLOCK_LINES, null));
        return FailureWarnings.preAskContext(warnings, preferences, room);
    }

    // ------------------------------------------------------------------------------------ administration

    @Override
    public Episode getEpisode(String tenantId, String episodeId) throws NotFoundException {
        org.agentmemory.episodic.entity.Episode e =
                episodeId == null ? null : store().findByEpisodeId(tenantId, episodeId);
        if (e == null) {
            throw NotFoundException.episode(tenantId, episodeId);
        }
        return EpisodeMapper.toRecord(e);
    }

    @Override
    public void deleteEpisode(String tenantId, String agentId, String userId, String episodeId)
            throws NotFoundException, InvalidInputException {
        eraser.deleteEpisode(tenantId, agentId, userId, episodeId);
    }

    @Override
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public long deleteAgentEpisodes(String tenantId, String agentId) throws InvalidInputException {
        return eraser.deleteOfAgent(tenantId, agentId);
    }

    @Override
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public long deleteUserEpisodes(String tenantId, String agentId, String userId) throws InvalidInputException {
        return eraser.deleteOfUser(tenantId, agentId, userId);
    }

    @Override
    public List<Episode> exportEpisodes(MemoryNamespace namespace, int limit) throws InvalidInputException {
        EpisodeRules.checkNamespace("", namespace);
        checkLimit("limit", limit);
        return EpisodeStore.records(store().recent(namespace, false, null, now(), limit));
    }

    @Override
    public Page<Episode> listEpisodes(MemoryNamespace namespace, int limit, String cursor)
            throws InvalidInputException {
        EpisodeRules.checkNamespace("", namespace);
        checkLimit("limit", limit);
        List<org.agentmemory.episodic.entity.Episode> rows =
                store().page(namespace, Cursors.idBound(cursor), limit + 1);
        boolean more = rows.size() > limit;
        List<org.agentmemory.episodic.entity.Episode> items = more ? rows.subList(0, limit) : rows;
        return new Page<>(
                EpisodeStore.records(items),
                more ? Cursors.ofId(items.get(items.size() - 1).getId()) : null);
    }

    @Override
    public long countEpisodes(MemoryNamespace namespace) throws InvalidInputException {
        EpisodeRules.checkNamespace("", namespace);
        return store().count(namespace);
    }

    @Override
    public int markConsolidated(String tenantId, List<String> episodeIds, String pageId) throws InvalidInputException {
        InputRules.checkTenant(tenantId);
        InputRules.checkId("pageId", pageId);
        if (episodeIds == null || episodeIds.size() > MAX_LIMIT) {
            throw new InvalidInputException(
                    "episodeIds", "max-items", "episodeIds must list 0 to " + MAX_LIMIT + " ids.");
        }
        Map<String, Object> patch = new LinkedHashMap<>();
        patch.put(Episode.CONSOLIDATED_INTO, pageId);
        return store().mergeMetadata(tenantId, episodeIds, patch, now());
    }

    @Override
    public long cleanupExpired() {
        return store().deleteExpired(now());
    }

    @Override
    public long compactNamespace(MemoryNamespace namespace, int keepTopN, boolean keepAllFailures)
            throws InvalidInputException {
        EpisodeRules.checkNamespace("", namespace);
        if (keepTopN < 0) {
            throw new InvalidInputException("keepTopN", "min", "keepTopN is " + keepTopN + "; it must be ≥ 0.");
        }
        return store().compact(namespace, keepTopN, keepAllFailures);
    }

    // ------------------------------------------------------------------------------------- agent tools

    @Override
    @jakarta.interceptor.Interceptors(org.agentmemory.platform.search.SearchEngineGuard.class)
    public String searchPastExperiences(MemoryNamespace namespace, String query, int topK, boolean failuresOnly)
            throws InvalidInputException {
        return ToolTexts.searchResults(
                recallSimilar(new RecallRequest(namespace, query, topK, null, null, failuresOnly, RecallMode.HYBRID)));
    }

    @Override
    public String recordLessonTool(
            MemoryNamespace namespace, String situation, String lesson, EpisodeCategory category, Integer importance)
            throws InvalidInputException {
        return ToolTexts.lessonRecorded(recordLesson(namespace, situation, lesson, category, importance));
    }

    @Override
    public String warningsTool(MemoryNamespace namespace, String context) throws InvalidInputException {
        return ToolTexts.warnings(failureWarnings(namespace, context, EpisodicMemoryOperations.DEFAULT_WARNINGS));
    }

    private static void checkLimit(String field, int limit) throws InvalidInputException {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new InvalidInputException(
                    field, "range", field + " is " + limit + "; it must be between 1 and " + MAX_LIMIT + ".");
        }
    }
}
