package org.agentmemory.platform.security;

import java.lang.reflect.Constructor;
import java.lang.reflect.Parameter;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Puts a caller's tenant into the arguments of a public view's operation (issue 32 item 2): every {@code String}
 * parameter named {@code tenantId}, every record component named {@code tenantId} (a {@code ConversationKey}, a
 * {@code MemoryNamespace}, a {@code MessageRecallRequest}), also inside records that hold such records (an
 * {@code EpisodeInput}'s namespace, an {@code ImportLine}'s key) and lists of them. Whatever tenant the caller
 * passed, the operation then runs in the caller's. Records are rebuilt through their canonical constructors, so
 * their own rules still apply. Pure and thread-safe.
 */
public final class TenantArguments {

    /** The name every tenant parameter and record component carries in the public views. */
    public static final String TENANT = "tenantId";

    /** Whether a record type holds a tenant, directly or in a component record; by type. */
    private static final Map<Class<?>, Boolean> BEARING = new ConcurrentHashMap<>();

    private TenantArguments() {}

    /**
     * @param parameters the operation's parameters (names compiled in with {@code -parameters})
     * @param arguments  the arguments, not changed
     * @param tenant     the caller's tenant
     * @return the arguments with every tenant replaced by {@code tenant}
     */
    public static Object[] scoped(Parameter[] parameters, Object[] arguments, String tenant) {
        Object[] scoped = arguments.clone();
        for (int i = 0; i < scoped.length; i++) {
            if (parameters[i].getType() == String.class && TENANT.equals(parameters[i].getName())) {
                scoped[i] = tenant;
            } else {
                scoped[i] = scoped(scoped[i], tenant);
            }
        }
        return scoped;
    }

    /**
     * @param value  an argument, or {@code null}
     * @param tenant the caller's tenant
     * @return the value with every tenant it holds replaced; the value itself when it holds none
     */
    public static Object scoped(Object value, String tenant) {
        if (value instanceof List<?> list && !list.isEmpty()) {
            List<Object> copy = new ArrayList<>(list.size());
            boolean changed = false;
            for (Object item : list) {
                Object s = scoped(item, tenant);
                changed |= s != item;
                copy.add(s);
            }
            return changed ? copy : value;
        }
        if (value == null || !value.getClass().isRecord() || !bearing(value.getClass())) {
            return value;
        }
        RecordComponent[] components = value.getClass().getRecordComponents();
        Object[] values = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        try {
            for (int i = 0; i < components.length; i++) {
                Object v = components[i].getAccessor().invoke(value);
                types[i] = components[i].getType();
                values[i] = components[i].getType() == String.class && TENANT.equals(components[i].getName())
                        ? tenant
                        : scoped(v, tenant);
            }
            Constructor<?> canonical = value.getClass().getDeclaredConstructor(types);
            canonical.setAccessible(true);
            return canonical.newInstance(values);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot put the caller's tenant into a " + value.getClass(), e);
        }
    }

    private static boolean bearing(Class<?> type) {
        Boolean known = BEARING.get(type);
        if (known != null) {
            return known;
        }
        boolean bearing = false;
        for (RecordComponent c : type.getRecordComponents()) {
            if ((c.getType() == String.class && TENANT.equals(c.getName()))
                    || (c.getType().isRecord() && bearing(c.getType()))) {
                bearing = true;
                break;
            }
        }
        BEARING.put(type, bearing);
        return bearing;
    }
}
