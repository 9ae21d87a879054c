package org.agentmemory.it.readme;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import javax.naming.Context;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.agentmemory.api.MemoryException;
import org.agentmemory.api.compaction.HistoryMessage;
import org.agentmemory.api.context.ContextMemoryRemote;
import org.agentmemory.api.context.ContextRequest;
import org.agentmemory.api.context.ConversationContext;
import org.agentmemory.api.conversation.AppendedTurn;
import org.agentmemory.api.conversation.ConversationKey;
import org.agentmemory.api.conversation.ConversationMemoryRemote;
import org.agentmemory.api.conversation.ToolInvocationRecord;
import org.agentmemory.api.conversation.TurnRecord;

/**
 * The README's minimal agent loop in Java, over the service's remote EJB views: {@code org.agentmemory:memory-api}
 * and {@code org.wildfly:wildfly-client-all} on the class path, nothing else. The README shows the constructor and
 * {@link #round}; the build compiles this file and {@code ReadmeCommandsIT} checks that the README's excerpt is
 * still part of it and runs {@link #round} against the test server.
 *
 * <p>Against {@code mvn package -Prun}: run {@link #main} with no argument (or a {@code remote+http://host:port}
 * URL); it prints the conversation and the turns it stored.
 */
public final class MinimalAgentLoop {

    /** Your model: gets the history that fits its budget and the new user message, answers. */
    @FunctionalInterface
    public interface Model {
        /**
         * @param history     the compacted history, oldest first (user, assistant, user, …)
         * @param userMessage the new user message
         * @return the reply
         */
        Reply answer(List<HistoryMessage> history, String userMessage);
    }

    /**
     * A model's reply.
     *
     * @param text      the assistant's answer
     * @param toolCalls the tools it called on the way, with their outputs
     */
    public record Reply(String text, List<ToolInvocationRecord> toolCalls) {}

    private static final String SYSTEM_PROMPT = "You are a helpful assistant.";

    private final ConversationMemoryRemote memory;
    private final ContextMemoryRemote context;

    /**
     * @param server   the server's remoting URL, e.g. {@code remote+http://localhost:8080}
     * @param user     an application user of the server (its tenant: {@code memory.security.ejb.tenants})
     * @param password its password
     * @throws NamingException when a lookup fails (server down, EAR not deployed)
     */
    public MinimalAgentLoop(String server, String user, String password) throws NamingException {
        Properties env = new Properties();
        env.put(Context.INITIAL_CONTEXT_FACTORY, "org.wildfly.naming.client.WildFlyInitialContextFactory");
        env.put(Context.PROVIDER_URL, server);
        env.put(Context.SECURITY_PRINCIPAL, user); // the tenant comes from the user, never from a parameter
        env.put(Context.SECURITY_CREDENTIALS, password);
        InitialContext naming = new InitialContext(env);
        memory = lookup(naming, "ConversationMemoryBean", ConversationMemoryRemote.class);
        context = lookup(naming, "ContextMemoryBean", ContextMemoryRemote.class);
    }

    /**
     * One round of the loop.
     *
     * @param key         the conversation (created by the first round's write)
     * @param userMessage what the user said
     * @param model       the model to ask
     * @return the stored turn and its conversation id
     * @throws MemoryException when an id or a field breaks a rule
     */
    public AppendedTurn round(ConversationKey key, String userMessage, Model model) throws MemoryException {
        // 1. The history that fits gpt-4o's window, counting the system prompt and the new user message
        ConversationContext history =
                context.context(key, ContextRequest.forModel("gpt-4o").withPrompts(SYSTEM_PROMPT, userMessage));
        // 2. Your model call (the tools it calls run here too)
        Reply reply = model.answer(history.messages(), userMessage);
        // 3. Store the round: user message, answer, tool calls, and the commit of step 1
        TurnRecord turn = TurnRecord.of(null, userMessage, reply.text()).withToolInvocations(reply.toolCalls());
        return memory.addTurn(key, turn, history.commit());
    }

    private static <T> T lookup(InitialContext naming, String bean, Class<T> view) throws NamingException {
        return view.cast(naming.lookup("ejb:agent-memory/memory-ejb/" + bean + "!" + view.getName()));
    }

    /**
     * Two rounds with a stand-in model that always calls a weather tool.
     *
     * @param args the server's remoting URL, or nothing for {@code remote+http://localhost:8080}
     * @throws Exception when the server cannot be reached or refuses a call
     */
    public static void main(String[] args) throws Exception {
        MinimalAgentLoop loop = new MinimalAgentLoop(
                args.length > 0 ? args[0] : "remote+http://localhost:8080",
                System.getenv().getOrDefault("MEMORY_EJB_USER", "memory-dev"),
                System.getenv("MEMORY_EJB_PASSWORD"));
        ConversationKey key = ConversationKey.of("loop-demo", "java-" + System.currentTimeMillis(), "s1");
        Model model = (history, userMessage) -> new Reply(
                "18 °C and sunny.",
                List.of(ToolInvocationRecord.of("weather", Map.of("city", "Paris"), "{\"temp\": 18}")));
        for (String userMessage : List.of("Weather in Paris?", "And tomorrow?")) {
            AppendedTurn stored = loop.round(key, userMessage, model);
            System.out.println("conversation " + stored.conversationId() + ", turn "
                    + stored.turn().sequence());
        }
    }
}
