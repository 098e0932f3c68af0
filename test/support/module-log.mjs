// `node --import ./module-log.mjs …`: appends every module URL the program loads to $WHET_MODULE_LOG, one a
// line, so a test can see what a program really imported (the stage programs' "loads no other stage").
import { register } from 'node:module';

register('./module-log-hooks.mjs', import.meta.url, { data: { file: process.env.WHET_MODULE_LOG } });
