package org.agentmemory.it.support;

import java.util.Properties;
import javax.naming.Context;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.agentmemory.api.context.ContextMemoryRemote;
import org.agentmemory.api.conversation.ConversationMemoryRemote;

/**
 * A plain Java remote EJB client, as an agent backend outside the server would write it
 * (wildfly-client-all on the class path; from the same host no credentials are needed).
 */
public final class RemoteClient {

    /** The lookup name of the remote view. */
    public static final String NAME =
            "ejb:agent-memory/memory-ejb/ConversationMemoryBean!" + ConversationMemoryRemote.class.getName();

    /** The lookup name of the read path's remote view. */
    public static final String CONTEXT_NAME =
            "ejb:agent-memory/memory-ejb/ContextMemoryBean!" + ContextMemoryRemote.class.getName();

    private RemoteClient() {}

    /** @return a proxy to the PostgreSQL server's remote episodic memory */
    public static org.agentmemory.api.episodic.EpisodicMemoryRemote episodicMemory() {
        return lookup(
                "ejb:agent-memory/memory-ejb/EpisodicMemoryBean!"
                        + org.agentmemory.api.episodic.EpisodicMemoryRemote.class.getName(),
                org.agentmemory.api.episodic.EpisodicMemoryRemote.class);
    }

    /** @return a proxy to the PostgreSQL server's remote conversation recall */
    public static org.agentmemory.api.recall.ConversationRecallRemote conversationRecall() {
        return lookup(
                "ejb:agent-memory/memory-ejb/ConversationRecallBean!"
                        + org.agentmemory.api.recall.ConversationRecallRemote.class.getName(),
                org.agentmemory.api.recall.ConversationRecallRemote.class);
    }

    /** @return a proxy to the PostgreSQL server's remote view of the read path */
    public static ContextMemoryRemote contextMemory() {
        return lookup(CONTEXT_NAME, ContextMemoryRemote.class);
    }

    /** @return a proxy to the PostgreSQL server's remote view */
    public static ConversationMemoryRemote conversationMemory() {
        return lookup(NAME, ConversationMemoryRemote.class);
    }

    private static <T> T lookup(String name, Class<T> view) {
        Properties env = new Properties();
        env.put(Context.INITIAL_CONTEXT_FACTORY, "org.wildfly.naming.client.WildFlyInitialContextFactory");
        env.put(Context.PROVIDER_URL, System.getProperty("it.pg.remoting", "remote+http://localhost:8180"));
        try {
            return view.cast(new InitialContext(env).lookup(name));
        } catch (NamingException e) {
            throw new IllegalStateException("remote lookup of " + name + " failed", e);
        }
    }
}
