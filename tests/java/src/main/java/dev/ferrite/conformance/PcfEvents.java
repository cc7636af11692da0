package dev.ferrite.conformance;

import static dev.ferrite.conformance.Checks.equal;
import static dev.ferrite.conformance.Checks.require;

import com.ibm.mq.MQException;
import com.ibm.mq.MQGetMessageOptions;
import com.ibm.mq.MQMessage;
import com.ibm.mq.MQQueue;
import com.ibm.mq.MQQueueManager;
import com.ibm.mq.constants.CMQC;
import com.ibm.mq.constants.CMQCFC;
import com.ibm.mq.headers.pcf.MQCFGR;
import com.ibm.mq.headers.pcf.PCFMessage;
import com.ibm.mq.headers.pcf.PCFMessageAgent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Hashtable;
import java.util.List;

/**
 * IBM's PCF classes reading a Ferrite queue manager's command events (CMDEV) and configuration
 * events (CONFIGEV): switched on with MQCMD_CHANGE_Q_MGR, then a queue created with
 * MQCMD_CREATE_Q, and every event message parsed with IBM's PCFMessage (the command event's
 * two MQCFGR groups included); then a local event (LOCALEV) for this client's open of an
 * unknown queue. Arguments: queue manager name, host, port, the administration channel.
 */
public final class PcfEvents {
    private static final String QUEUE = "JAVA.EVENTS.Q";

    private final String qmgrName;
    private final String host;
    private final int port;
    private final String adminChannel;

    private PcfEvents(String[] args) {
        qmgrName = args[0];
        host = args[1];
        port = Integer.parseInt(args[2]);
        adminChannel = args[3];
    }

    public static void main(String[] args) throws Exception {
        System.exit(new PcfEvents(args).run());
    }

    private Hashtable<String, Object> properties() {
        Hashtable<String, Object> properties = new Hashtable<>();
        properties.put(CMQC.HOST_NAME_PROPERTY, host);
        properties.put(CMQC.PORT_PROPERTY, port);
        properties.put(CMQC.CHANNEL_PROPERTY, adminChannel);
        properties.put(CMQC.TRANSPORT_PROPERTY, CMQC.TRANSPORT_MQSERIES_CLIENT);
        return properties;
    }

    /** Every message on `queue`, parsed with PCFMessage. */
    private static List<PCFMessage> drain(MQQueueManager qmgr, String queue) throws Exception {
        List<PCFMessage> events = new ArrayList<>();
        MQQueue input = qmgr.accessQueue(queue, CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_FAIL_IF_QUIESCING);
        try {
            while (true) {
                MQMessage message = new MQMessage();
                MQGetMessageOptions gmo = new MQGetMessageOptions();
                gmo.options = CMQC.MQGMO_NO_SYNCPOINT;
                try {
                    input.get(message, gmo);
                } catch (MQException done) {
                    equal(CMQC.MQRC_NO_MSG_AVAILABLE, done.reasonCode, "end of the event queue");
                    return events;
                }
                equal(CMQC.MQFMT_EVENT, message.format, "format");
                PCFMessage event = new PCFMessage(message);
                equal(CMQCFC.MQCFT_EVENT, event.getType(), "type");
                events.add(event);
            }
        } finally {
            input.close();
        }
    }

    private int run() throws Exception {
        Checks checks = new Checks();
        MQQueueManager qmgr = new MQQueueManager(qmgrName, properties());
        PCFMessageAgent agent = new PCFMessageAgent(qmgr);
        try {
            checks.check("CHANGE_Q_MGR switches command and configuration events on", () -> {
                PCFMessage request = new PCFMessage(CMQCFC.MQCMD_CHANGE_Q_MGR);
                request.addParameter(CMQC.MQIA_COMMAND_EVENT, CMQCFC.MQEVR_ENABLED);
                request.addParameter(CMQC.MQIA_CONFIGURATION_EVENT, CMQCFC.MQEVR_ENABLED);
                agent.send(request);
                PCFMessage inquire = new PCFMessage(CMQCFC.MQCMD_INQUIRE_Q_MGR);
                inquire.addParameter(CMQCFC.MQIACF_Q_MGR_ATTRS,
                        new int[] {CMQC.MQIA_COMMAND_EVENT, CMQC.MQIA_CONFIGURATION_EVENT});
                PCFMessage[] responses = agent.send(inquire);
                equal(CMQCFC.MQEVR_ENABLED,
                        responses[0].getIntParameterValue(CMQC.MQIA_COMMAND_EVENT), "CMDEV");
                equal(CMQCFC.MQEVR_ENABLED,
                        responses[0].getIntParameterValue(CMQC.MQIA_CONFIGURATION_EVENT),
                        "CONFIGEV");
            });

            checks.check("the queue manager's change, then a refresh of every object", () -> {
                List<PCFMessage> events = drain(qmgr, "SYSTEM.ADMIN.CONFIG.EVENT");
                require(events.size() > 3, "events: " + events.size());
                PCFMessage before = events.get(0);
                equal(CMQCFC.MQCMD_CONFIG_EVENT, before.getCommand(), "command");
                equal(CMQC.MQRC_CONFIG_CHANGE_OBJECT, before.getReason(), "reason");
                equal(CMQC.MQOT_Q_MGR, before.getIntParameterValue(CMQCFC.MQIACF_OBJECT_TYPE),
                        "ObjectType");
                equal(CMQCFC.MQEVR_DISABLED,
                        before.getIntParameterValue(CMQC.MQIA_CONFIGURATION_EVENT), "before");
                equal(1, before.getMsgSeqNumber(), "before's MsgSeqNumber");
                PCFMessage after = events.get(1);
                equal(CMQCFC.MQEVR_ENABLED,
                        after.getIntParameterValue(CMQC.MQIA_CONFIGURATION_EVENT), "after");
                equal(2, after.getMsgSeqNumber(), "after's MsgSeqNumber");
                for (PCFMessage refresh : events.subList(2, events.size())) {
                    equal(CMQC.MQRC_CONFIG_REFRESH_OBJECT, refresh.getReason(), "refresh");
                }
            });

            checks.check("CREATE_Q gives a Create object event with the queue's attributes", () -> {
                PCFMessage create = new PCFMessage(CMQCFC.MQCMD_CREATE_Q);
                create.addParameter(CMQC.MQCA_Q_NAME, QUEUE);
                create.addParameter(CMQC.MQIA_Q_TYPE, CMQC.MQQT_LOCAL);
                create.addParameter(CMQC.MQIA_MAX_Q_DEPTH, 42);
                agent.send(create);
                List<PCFMessage> events = drain(qmgr, "SYSTEM.ADMIN.CONFIG.EVENT");
                equal(1, events.size(), "events");
                PCFMessage event = events.get(0);
                equal(CMQC.MQRC_CONFIG_CREATE_OBJECT, event.getReason(), "reason");
                equal(CMQC.MQOT_Q, event.getIntParameterValue(CMQCFC.MQIACF_OBJECT_TYPE),
                        "ObjectType");
                equal(QUEUE, event.getStringParameterValue(CMQC.MQCA_Q_NAME).trim(), "QName");
                equal(CMQC.MQQT_LOCAL, event.getIntParameterValue(CMQC.MQIA_Q_TYPE), "QType");
                equal(42, event.getIntParameterValue(CMQC.MQIA_MAX_Q_DEPTH), "MaxQDepth");
                equal(CMQCFC.MQEVO_MSG, event.getIntParameterValue(CMQCFC.MQIACF_EVENT_ORIGIN),
                        "EventOrigin");
                equal(qmgrName, event.getStringParameterValue(CMQCFC.MQCACF_EVENT_Q_MGR).trim(),
                        "EventQMgr");
            });

            checks.check("command events, with their two groups", () -> {
                List<PCFMessage> events = drain(qmgr, "SYSTEM.ADMIN.COMMAND.EVENT");
                List<Integer> commands = new ArrayList<>();
                for (PCFMessage event : events) {
                    equal(CMQCFC.MQCMD_COMMAND_EVENT, event.getCommand(), "command");
                    equal(CMQC.MQRC_COMMAND_PCF, event.getReason(), "reason");
                    MQCFGR context = (MQCFGR) event.getParameter(CMQCFC.MQGACF_COMMAND_CONTEXT);
                    require(context != null, "CommandContext");
                    equal(CMQCFC.MQEVO_MSG,
                            context.getIntParameterValue(CMQCFC.MQIACF_EVENT_ORIGIN), "EventOrigin");
                    commands.add(context.getIntParameterValue(CMQCFC.MQIACF_COMMAND));
                    require(event.getParameter(CMQCFC.MQGACF_COMMAND_DATA) instanceof MQCFGR,
                            "CommandData");
                }
                equal(Arrays.asList(CMQCFC.MQCMD_CHANGE_Q_MGR, CMQCFC.MQCMD_INQUIRE_Q_MGR,
                        CMQCFC.MQCMD_CREATE_Q), commands, "the commands reported");
                MQCFGR data = (MQCFGR) events.get(2).getParameter(CMQCFC.MQGACF_COMMAND_DATA);
                equal(QUEUE, data.getStringParameterValue(CMQC.MQCA_Q_NAME).trim(),
                        "the command's data");
            });

            checks.check("DELETE_Q with events off again: nothing more", () -> {
                PCFMessage off = new PCFMessage(CMQCFC.MQCMD_CHANGE_Q_MGR);
                off.addParameter(CMQC.MQIA_COMMAND_EVENT, CMQCFC.MQEVR_DISABLED);
                off.addParameter(CMQC.MQIA_CONFIGURATION_EVENT, CMQCFC.MQEVR_DISABLED);
                agent.send(off);
                PCFMessage delete = new PCFMessage(CMQCFC.MQCMD_DELETE_Q);
                delete.addParameter(CMQC.MQCA_Q_NAME, QUEUE);
                agent.send(delete);
                equal(1, drain(qmgr, "SYSTEM.ADMIN.COMMAND.EVENT").size(),
                        "only the change that switched them off");
                equal(2, drain(qmgr, "SYSTEM.ADMIN.CONFIG.EVENT").size(),
                        "only the queue manager's change (before and after)");
            });

            checks.check("LOCALEV: an unknown queue names this client's channel", () -> {
                PCFMessage change = new PCFMessage(CMQCFC.MQCMD_CHANGE_Q_MGR);
                change.addParameter(CMQC.MQIA_LOCAL_EVENT, CMQCFC.MQEVR_ENABLED);
                agent.send(change);
                try {
                    qmgr.accessQueue("NO.SUCH.QUEUE", CMQC.MQOO_OUTPUT).close();
                    throw new AssertionError("the open succeeded");
                } catch (MQException expected) {
                    equal(CMQC.MQRC_UNKNOWN_OBJECT_NAME, expected.reasonCode, "reason");
                }
                List<PCFMessage> events = drain(qmgr, "SYSTEM.ADMIN.QMGR.EVENT");
                equal(1, events.size(), "events");
                PCFMessage event = events.get(0);
                equal(CMQCFC.MQCMD_Q_MGR_EVENT, event.getCommand(), "command");
                equal(CMQC.MQRC_UNKNOWN_OBJECT_NAME, event.getReason(), "reason");
                equal("NO.SUCH.QUEUE", event.getStringParameterValue(CMQC.MQCA_Q_NAME).trim(),
                        "QName");
                equal(adminChannel,
                        event.getStringParameterValue(CMQCFC.MQCACH_CHANNEL_NAME).trim(),
                        "ChannelName");
                require(!event.getStringParameterValue(CMQCFC.MQCACH_CONNECTION_NAME).trim()
                        .isEmpty(), "ConnName");
            });
        } finally {
            agent.disconnect();
            qmgr.disconnect();
        }
        return checks.finish();
    }
}
